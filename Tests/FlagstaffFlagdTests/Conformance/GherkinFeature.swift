import Foundation

/// A small reader of the Gherkin the flagd test bed writes: `Feature`, `Background`, `Scenario`,
/// `Scenario Outline` with `Examples` tables (each with its own tags), tags, comments, steps and step tables.
///
/// Each outline is expanded into one scenario per example row, `<name>` placeholders replaced. Cells are unescaped
/// as Gherkin does (`\|`, `\\`, `\n`); any other backslash is kept, so `A\u0000B` is those eight characters.
struct GherkinFeature {
    struct Step: CustomStringConvertible {
        var text: String
        /// The rows of a table under the step (header row first).
        var table: [[String]]
        var description: String { text }
    }

    struct Scenario {
        var name: String
        var tags: Set<String>
        var steps: [Step]
        /// `file:line` of the scenario (and of the example row for an outline).
        var location: String
    }

    var name = ""
    var scenarios: [Scenario] = []

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    init(text: String, file: String) throws {
        var featureTags: Set<String> = []
        var pendingTags: Set<String> = []
        var background: [Step] = []
        // The scenario being read.
        var current: (name: String, tags: Set<String>, steps: [Step], outline: Bool, line: Int)?
        var inBackground = false
        // Examples of the current outline: tags, header, rows (with their line).
        var examples: (tags: Set<String>, header: [String]?)?

        func finishScenario(_ scenarios: inout [Scenario]) {
            guard let scenario = current, !scenario.outline else { return }
            scenarios.append(
                Scenario(
                    name: scenario.name, tags: scenario.tags, steps: background + scenario.steps,
                    location: "\(file):\(scenario.line)"))
        }

        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("@") {
                let tags = line.split(separator: " ").map(String.init).filter { $0.hasPrefix("@") }
                pendingTags.formUnion(tags)
                continue
            }
            if line.hasPrefix("Feature:") {
                name = String(line.dropFirst("Feature:".count)).trimmingCharacters(in: .whitespaces)
                featureTags = pendingTags
                pendingTags = []
            } else if line.hasPrefix("Background:") {
                inBackground = true
            } else if line.hasPrefix("Scenario Outline:") || line.hasPrefix("Scenario:")
                || line.hasPrefix("Scenario Template:")
            {
                finishScenario(&scenarios)
                inBackground = false
                examples = nil
                let outline = !line.hasPrefix("Scenario:")
                let title = line.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
                current = (
                    title.trimmingCharacters(in: .whitespaces), featureTags.union(pendingTags), [], outline, number
                )
                pendingTags = []
            } else if line.hasPrefix("Examples:") || line == "Examples" || line.hasPrefix("Scenarios:") {
                guard current?.outline == true else {
                    throw ParseError(description: "\(file):\(number): Examples outside a Scenario Outline")
                }
                examples = (pendingTags, nil)
                pendingTags = []
            } else if line.hasPrefix("|") {
                let cells = Self.cells(line)
                if var table = examples, let scenario = current {
                    guard let header = table.header else {
                        table.header = cells
                        examples = table
                        continue
                    }
                    guard header.count == cells.count else {
                        throw ParseError(
                            description: "\(file):\(number): \(cells.count) cells, the header has \(header.count)")
                    }
                    let values = Dictionary(zip(header, cells), uniquingKeysWith: { _, last in last })
                    func fill(_ text: String) -> String {
                        values.reduce(text) { $0.replacingOccurrences(of: "<\($1.key)>", with: $1.value) }
                    }
                    let steps = scenario.steps.map { Step(text: fill($0.text), table: $0.table.map { $0.map(fill) }) }
                    scenarios.append(
                        Scenario(
                            name: fill(scenario.name), tags: scenario.tags.union(table.tags),
                            steps: background + steps, location: "\(file):\(number)"))
                } else if inBackground, !background.isEmpty {
                    background[background.count - 1].table.append(cells)
                } else if current != nil, !(current!.steps.isEmpty) {
                    current!.steps[current!.steps.count - 1].table.append(cells)
                } else {
                    throw ParseError(description: "\(file):\(number): a table row outside a step or Examples")
                }
            } else if let keyword = ["Given ", "When ", "Then ", "And ", "But ", "* "].first(where: line.hasPrefix) {
                let step = Step(text: String(line.dropFirst(keyword.count)), table: [])
                if inBackground {
                    background.append(step)
                } else if current != nil {
                    current!.steps.append(step)
                } else {
                    throw ParseError(description: "\(file):\(number): a step outside a scenario")
                }
            } else if line.hasPrefix("Rule:") {
                finishScenario(&scenarios)
                current = nil
            } else {
                // A description line under Feature or Scenario.
                continue
            }
        }
        finishScenario(&scenarios)
    }

    /// The cells of a table row, unescaped.
    static func cells(_ line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped {
                switch character {
                case "|": cell.append("|")
                case "\\": cell.append("\\")
                case "n": cell.append("\n")
                default:
                    cell.append("\\")
                    cell.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
        }
        return cells
    }
}
