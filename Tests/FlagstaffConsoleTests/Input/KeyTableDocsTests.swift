import Foundation
import Testing

@testable import FlagstaffConsole

/// The key table of docs/console.md against ``KeyBindings``: every documented row is bound with that meaning,
/// and every binding is documented.
@Suite struct KeyTableDocsTests {
    struct Row: Hashable, CustomStringConvertible {
        var keys: [String]
        var modes: Set<String>
        var help: String

        var description: String {
            let modeNames = ConsoleMode.Kind.allCases.map(\.name).filter(modes.contains)
            return "| " + keys.map { "`\($0)`" }.joined(separator: " ") + " | " + modeNames.joined(separator: ", ")
                + " | " + help + " |"
        }
    }

    /// The rows of the table under "## Keys" in docs/console.md.
    func documentedRows() throws -> [Row] {
        // Tests/FlagstaffConsoleTests/Input/this file → the package root.
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/console.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Keys\n").dropFirst().first)
        let table = section.components(separatedBy: "\n## ")[0]
        return table.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            let keys = cells[0].split(separator: " ").map { String($0.dropFirst().dropLast()) }
            let modes = Set(cells.count > 1 ? cells[1].components(separatedBy: ", ") : [])
            return Row(keys: keys, modes: modes, help: cells.count > 2 ? cells[2] : "")
        }
    }

    var boundRows: [Row] {
        KeyBindings.all.map { Row(keys: $0.keys.map(\.name), modes: Set($0.modes.map(\.name)), help: $0.help) }
    }

    @Test func theDocumentedKeyTableIsTheBoundOne() throws {
        let documented = try documentedRows()
        let bound = boundRows
        let table = bound.map(\.description).joined(separator: "\n")
        for row in documented where !bound.contains(row) {
            Issue.record("documented but not bound like that: \(row)\nthe bound table is:\n\(table)")
        }
        for row in bound where !documented.contains(row) {
            Issue.record("bound but not documented: \(row)\nthe bound table is:\n\(table)")
        }
        #expect(documented.count == bound.count)
    }

    @Test func aKeyMeansOneThingPerMode() {
        var seen: [String: String] = [:]
        for binding in KeyBindings.all {
            for key in binding.keys {
                for mode in binding.modes {
                    let slot = "\(key.name) in \(mode.name)"
                    #expect(seen[slot] == nil, "\(slot): \(seen[slot] ?? "") and \(binding.help)")
                    seen[slot] = binding.help
                }
            }
        }
    }

    @Test func everyBindingActsInDispatch() {
        // Each row's keys reach its action: a key's binding in each of its modes is that row.
        for binding in KeyBindings.all {
            for key in binding.keys {
                for mode in binding.modes {
                    #expect(
                        KeyBindings.binding(for: key, in: mode)?.action == binding.action, "\(key.name) in \(mode.name)"
                    )
                }
            }
        }
    }
}
