import Foundation

/// The shell examples of a Markdown file, read for ``DocsExamplesTests``.
///
/// A fenced block (no language, `sh`, `console`, `shell` or `text`) with lines starting `$ ` is an example to run:
/// each `$ ` line is a command (a line ending in `\` continues on the next), and the lines up to the next command
/// are the output the docs promise (standard output and standard error as a terminal shows them). An output line
/// `…` stands for any number of lines. A block right after `<!-- example: skip (why) -->` is not run, nor a console
/// picture (after `<!-- console-picture: … -->`, drawn by scripts/console-pictures). A comment
///
///     <!-- example: setup
///     flagstaff set blueText on
///     -->
///
/// runs its lines (shell commands, not shown) at that point; the examples of one file run in order in one sandbox,
/// so each can build on the ones before. Any other block that mentions `flagstaff` must be commands only (an `sh`
/// block, or lines that each begin with a command, such as a synopsis): anything else shows output that no test
/// checks, and is reported.
struct DocsExamples {
    /// One command of an example and the output shown for it.
    struct Step: Equatable {
        /// The command as the shell runs it (continuation lines joined).
        var command: String
        /// The output lines the docs show.
        var expected: [String]
        /// Where those output lines are in the file (0-based line indices), for rewriting them.
        var outputLines: Range<Int>
    }

    /// What a Markdown file holds, in order.
    enum Item: Equatable {
        /// Hidden commands to run first.
        case setup(line: Int, commands: String)
        /// A block of commands and outputs (`line` is the 1-based line of its fence).
        case example(line: Int, steps: [Step])
        /// A block marked `<!-- example: skip (why) -->`.
        case skipped(line: Int, reason: String)
        /// A block that shows output but neither runs nor says why not.
        case unchecked(line: Int, firstLine: String)
    }

    /// The languages of fences that can hold shell examples.
    static let shellLanguages: Set<String> = ["", "sh", "console", "shell", "text"]

    /// The marker that keeps the next block from running; its reason is in parentheses.
    static let skipMarker = "<!-- example: skip ("
    /// The marker of a console picture (scripts/console-pictures draws it; ``DocsExamplesTests`` checks it).
    static let pictureMarker = "<!-- console-picture:"
    /// The start of a setup comment.
    static let setupMarker = "<!-- example: setup"

    /// Reads the examples of a Markdown text.
    static func items(in text: String) -> [Item] {
        let lines = text.components(separatedBy: "\n")
        var items: [Item] = []
        var index = 0
        var marker: String?
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(setupMarker) {
                let start = index
                var commands: [String] = []
                let rest = trimmed.dropFirst(setupMarker.count)
                let sameLine = rest.hasPrefix(":") ? String(rest.dropFirst()) : String(rest)
                if sameLine.hasSuffix("-->") {
                    commands.append(String(sameLine.dropLast(3)))
                } else {
                    if !sameLine.trimmingCharacters(in: .whitespaces).isEmpty { commands.append(sameLine) }
                    index += 1
                    while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "-->" {
                        commands.append(lines[index])
                        index += 1
                    }
                }
                items.append(.setup(line: start + 1, commands: commands.joined(separator: "\n")))
                index += 1
                continue
            }
            if trimmed.hasPrefix(skipMarker) || trimmed.hasPrefix(pictureMarker) {
                marker =
                    trimmed.hasPrefix(pictureMarker)
                    ? "(a console picture)"
                    : String(trimmed.dropFirst(skipMarker.count - 1).dropLast(trimmed.hasSuffix("-->") ? 3 : 0))
                        .trimmingCharacters(in: .whitespaces)
                index += 1
                continue
            }
            guard trimmed.hasPrefix("```") else {
                if !trimmed.isEmpty { marker = nil }
                index += 1
                continue
            }
            let language = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            let indent = line.prefix { $0 == " " }
            let start = index
            index += 1
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" { index += 1 }
            let body = Array(lines[(start + 1)..<min(index, lines.count)]).map { line in
                line.hasPrefix(indent) ? String(line.dropFirst(indent.count)) : line
            }
            index += 1
            defer { marker = nil }
            guard shellLanguages.contains(language) else { continue }
            if let marker {
                items.append(.skipped(line: start + 1, reason: marker))
                continue
            }
            if body.contains(where: { $0.hasPrefix("$ ") }) {
                items.append(.example(line: start + 1, steps: steps(body, firstLine: start + 1)))
            } else if language != "sh", body.contains(where: { $0.contains("flagstaff") }),
                !isCommandsOnly(body)
            {
                items.append(.unchecked(line: start + 1, firstLine: body.first ?? ""))
            }
        }
        return items
    }

    /// The commands and outputs of a block's lines; `firstLine` is the file index of `body[0]`.
    static func steps(_ body: [String], firstLine: Int) -> [Step] {
        var steps: [Step] = []
        var index = 0
        while index < body.count {
            guard body[index].hasPrefix("$ ") else {
                // Text before the first command: kept as the output of an empty command, which fails loudly.
                steps.append(Step(command: "", expected: [body[index]], outputLines: index..<index + 1))
                index += 1
                continue
            }
            var command = String(body[index].dropFirst(2))
            index += 1
            while command.hasSuffix("\\"), index < body.count {
                command = String(command.dropLast()) + "\n" + body[index]
                index += 1
            }
            let outputStart = index
            while index < body.count, !body[index].hasPrefix("$ ") { index += 1 }
            var output = Array(body[outputStart..<index])
            while let last = output.last, last.trimmingCharacters(in: .whitespaces).isEmpty { output.removeLast() }
            steps.append(
                Step(
                    command: command, expected: output,
                    outputLines: (firstLine + outputStart)..<(firstLine + outputStart + output.count)))
        }
        return steps
    }

    /// Whether every line is a command (a synopsis or commands to type, no output): it begins with `flagstaff `,
    /// `swift `, an environment assignment or `#`, or continues a line ending in `\`.
    static func isCommandsOnly(_ body: [String]) -> Bool {
        var continues = false
        for line in body {
            defer { continues = line.hasSuffix("\\") }
            if continues || line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let words = line.split(separator: " ")
            let command = words.first { !$0.contains("=") } ?? ""
            if line.hasPrefix("#") || command == "flagstaff" || command == "swift" { continue }
            return false
        }
        return true
    }

    /// Whether the output matches the lines the docs show: equal after trimming trailing white space of each line
    /// and trailing blank lines, where a shown line `…` stands for any number of lines.
    static func matches(_ actual: [String], _ expected: [String]) -> Bool {
        let actual = trimmed(actual)
        let expected = trimmed(expected)
        func match(_ a: Int, _ e: Int) -> Bool {
            if e == expected.count { return a == actual.count }
            if expected[e].trimmingCharacters(in: .whitespaces) == "…" {
                return (a...actual.count).contains { match($0, e + 1) }
            }
            return a < actual.count && actual[a] == expected[e] && match(a + 1, e + 1)
        }
        return match(0, 0)
    }

    /// Lines without trailing white space, and without trailing blank lines.
    static func trimmed(_ lines: [String]) -> [String] {
        var lines = lines.map { line in
            String(line.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}
