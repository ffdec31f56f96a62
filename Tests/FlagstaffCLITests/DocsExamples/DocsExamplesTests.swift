import FlagstaffTestSupport
import Foundation
import Testing

/// The shell examples of README.md and docs/*.md run against the built `flagstaff`, and what they print is what the
/// docs show (issue 28: docs that cannot drift). The rules of an example are in ``DocsExamples``.
///
/// Each file runs in a sandbox of its own: `HOME` (shown as `/home/me`), `XDG_CONFIG_HOME` (`$HOME/.config`) and
/// the working directory are a fresh folder, `FLAGSTAFF_NOW` is ``now``, the store is the demo registry's default
/// one, and the built `flagstaff` comes first on `PATH`. With `FLAGSTAFF_UPDATE_DOCS=1` the test writes what the
/// commands printed into the docs instead of failing (review the diff).
@Suite struct DocsExamplesTests {
    /// The fixed time of every example.
    static let now = "2026-11-23T19:00:00Z"
    /// What the sandbox folder is shown as.
    static let shownHome = "/home/me"

    static var root: URL { BuildProducts.packageRoot }

    /// README.md and docs/*.md, as paths relative to the package root.
    static func markdownFiles() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    static func text(of file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    }

    @Test func everyBlockThatShowsOutputRunsOrSaysWhyNot() throws {
        var examples = 0
        for file in try Self.markdownFiles() {
            for item in DocsExamples.items(in: try Self.text(of: file)) {
                switch item {
                case .unchecked(let line, let firstLine):
                    Issue.record(
                        """
                        \(file):\(line): a block shows output that no test checks (\(firstLine)); write it as \
                        `$ command` lines followed by their output, or put `<!-- example: skip (why) -->` before it
                        """)
                case .example: examples += 1
                case .setup, .skipped: continue
                }
            }
        }
        #expect(examples >= 5, "the docs' examples were found")
    }

    @Test(.timeLimit(.minutes(10))) func everyExampleRunsAsShown() async throws {
        let executable = try BuildProducts.executable(named: "flagstaff")
        let update = ProcessInfo.processInfo.environment["FLAGSTAFF_UPDATE_DOCS"] == "1"
        for file in try Self.markdownFiles() {
            let text = try Self.text(of: file)
            let items = DocsExamples.items(in: text)
            guard items.contains(where: { if case .example = $0 { true } else { false } }) else { continue }
            let sandbox = TestDirectory.make("docs")
            var rewrites: [(lines: Range<Int>, output: [String])] = []
            for item in items {
                switch item {
                case .setup(let line, let commands):
                    let result = try await Self.run(commands, in: sandbox, executable: executable)
                    #expect(result.status == 0, "\(file):\(line): the setup failed:\n\(result.output)")
                case .example(let line, let steps):
                    for step in steps {
                        let result = try await Self.run(step.command, in: sandbox, executable: executable)
                        let actual = DocsExamples.trimmed(
                            result.output.replacingOccurrences(of: sandbox.path, with: Self.shownHome)
                                .components(separatedBy: "\n"))
                        guard !DocsExamples.matches(actual, step.expected) else { continue }
                        if update, !step.command.isEmpty {
                            rewrites.append((step.outputLines, actual))
                            continue
                        }
                        Issue.record(
                            """
                            \(file):\(line): `\(step.command)` printed
                            \(actual.joined(separator: "\n"))
                            but the docs show
                            \(step.expected.joined(separator: "\n"))
                            (fix the docs or the code; `FLAGSTAFF_UPDATE_DOCS=1 swift test --filter DocsExamplesTests` \
                            writes the printed output into the docs)
                            """)
                    }
                case .skipped, .unchecked: continue
                }
            }
            if !rewrites.isEmpty { try Self.rewrite(file, text: text, rewrites) }
        }
    }

    /// Runs shell commands in the sandbox folder; standard error goes where standard output goes, as in a terminal.
    static func run(_ commands: String, in folder: URL, executable: URL) async throws -> (status: Int32, output: String)
    {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FLAGSTAFF_") }
        environment.removeValue(forKey: "NO_COLOR")
        environment["HOME"] = folder.path
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent(".config").path
        environment["FLAGSTAFF_NOW"] = now
        environment["LANG"] = "C.UTF-8"
        environment["TERM"] = "dumb"
        environment["USER"] = "me"
        environment["LOGNAME"] = "me"
        environment["PATH"] =
            executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let script = "cd \"$1\" || exit 99\nexec 2>&1\n" + commands
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", folder.path], environment: environment,
            timeout: .seconds(60))
        return (result.status, result.standardOutput + result.standardError)
    }

    /// Replaces output lines of a file (ranges of 0-based line indices), last first so earlier ranges stay valid.
    static func rewrite(_ file: String, text: String, _ rewrites: [(lines: Range<Int>, output: [String])]) throws {
        var lines = text.components(separatedBy: "\n")
        for rewrite in rewrites.sorted(by: { $0.lines.lowerBound > $1.lines.lowerBound }) {
            let indent = String(lines[rewrite.lines.lowerBound - 1].prefix { $0 == " " })
            lines.replaceSubrange(rewrite.lines, with: rewrite.output.map { $0.isEmpty ? $0 : indent + $0 })
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: root.appendingPathComponent(file))
    }

    // MARK: Console pictures

    static let tmuxAvailable = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The console's screen pictures in the docs are what the built console draws now (scripts/console-pictures
    /// draws them in tmux at their size; it prints the difference when they are not).
    @Test(.enabled(if: tmuxAvailable, "the console pictures are drawn in tmux"), .timeLimit(.minutes(5)))
    func theConsolePicturesAreCurrent() async throws {
        let executable = try BuildProducts.executable(named: "flagstaff")
        let script = Self.root.appendingPathComponent("scripts/console-pictures")
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, "--check", "--binary", executable.path],
            environment: ProcessInfo.processInfo.environment, timeout: .seconds(240))
        #expect(
            result.status == 0,
            """
            \(result.standardError)\(result.standardOutput)
            (scripts/console-pictures --binary \(executable.path) redraws them; review the diff)
            """)
        #expect(result.standardOutput.contains("picture(s)"), "\(result)")
    }

    // MARK: The reader itself

    @Test func commandsOutputsElisionsAndMarkersAreRead() {
        let text = """
            Intro.

            <!-- example: setup
            flagstaff set blueText on
            -->

            ```
            $ flagstaff get blueText
            on
            $ flagstaff list \\
                --overridden
            blueText
            …
            ```

            <!-- example: skip (needs a simulator) -->
            ```sh
            $ xcrun simctl list
            ```

            ```
            flagstaff: note: something
            ```

            ```
            flagstaff list [--json]
            ```

            ```json
            {"flagstaff": 1}
            ```
            """
        let items = DocsExamples.items(in: text)
        #expect(
            items == [
                .setup(line: 3, commands: "flagstaff set blueText on"),
                .example(
                    line: 7,
                    steps: [
                        .init(command: "flagstaff get blueText", expected: ["on"], outputLines: 8..<9),
                        .init(
                            command: "flagstaff list \n    --overridden", expected: ["blueText", "…"],
                            outputLines: 11..<13),
                    ]),
                .skipped(line: 17, reason: "(needs a simulator)"),
                .unchecked(line: 21, firstLine: "flagstaff: note: something"),
            ])
    }

    @Test func outputsMatchExactlyButForTrailingSpaceAndElisions() {
        #expect(DocsExamples.matches(["on  ", ""], ["on"]))
        #expect(!DocsExamples.matches(["on"], ["off"]))
        #expect(!DocsExamples.matches(["on", "extra"], ["on"]))
        #expect(DocsExamples.matches(["a", "b", "c", "d"], ["a", "…", "d"]))
        #expect(DocsExamples.matches(["a", "d"], ["a", "  …", "d"]))
        #expect(!DocsExamples.matches(["a", "b"], ["a", "…", "d"]))
        #expect(!DocsExamples.matches([], ["on"]))
    }

    // MARK: One thread-sanitizer list

    /// `scripts/tsan-suites` is the one list: every name in it is a suite of the tests, and no doc or CI script
    /// spells out a `--filter` of its own for the sanitizer run.
    @Test func theSanitizerSuitesAreListedOnce() throws {
        let list = try Self.text(of: "scripts/tsan-suites").split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(list.count >= 10)
        let tests = Self.root.appendingPathComponent("Tests")
        var declared = ""
        let walker = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            declared += (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        }
        for name in list {
            #expect(
                declared.contains("struct \(name)") || declared.contains("class \(name)"),
                "scripts/tsan-suites names \(name), which no test declares")
        }
        for file in try Self.markdownFiles() + [".ci/run"] {
            let text = try Self.text(of: file)
            for line in text.split(separator: "\n") where line.contains("--sanitize=thread") && line.contains("Tests|")
            {
                Issue.record("\(file) copies the sanitizer suites (\(line)); name scripts/tsan-suites instead")
            }
        }
    }
}
