import FlagstaffTestSupport
import Foundation
import Testing

/// Runs the built `flagstaff` console in a private tmux server, on a manifest and store of its own.
///
/// The command is wrapped so the pane shows, after the console exits, `EXIT=<status>` and `STTY=same` or
/// `STTY=changed` (the terminal settings compared with `stty -g` before and after).
final class ConsoleHarness {
    /// The `flagstaff` binary of this build (found next to the test bundle, or under `.build`).
    let binary: String

    /// A manifest like the demo's, plus a flag whose label carries an escape sequence.
    static let manifestJSON = #"""
        {"name": "E2E demo",
         "flags": [
           {"key": "blueText", "label": "Blue Text", "description": "Tint body text blue", "default": false},
           {"key": "useTabBarNav", "description": "Tab bar navigation", "default": false, "requiresRestart": true},
           {"key": "evil", "label": "Evil \u001b[31mRED\u001b[0m name", "description": "bell \u0007 here", "default": true}
         ],
         "groups": [
           {"key": "moments", "label": "Moments", "flags": [
             {"key": "moments.isLikeButtonForMomentEnabled", "description": "Like button", "default": false, "requiresRestart": true},
             {"key": "moments.isRoundedAvatar", "description": "Round avatars", "default": true}]},
           {"key": "list", "label": "List", "flags": [
             {"key": "list.wide", "label": "日本語のフラグ Cafe\u0301", "description": "wide and combining", "default": false},
             {"key": "list.infiniteScroll", "description": "Load more when scrolling", "default": true},
             {"key": "list.compactRows", "default": false}]}
         ]}
        """#

    let directory: URL
    let manifest: URL
    let store: URL
    let session: TmuxSession
    /// The console's command line (quoted for bash), for typing into an interactive shell.
    let consoleCommand: String

    /// Starts the console.
    /// - Parameters:
    ///   - arguments: extra arguments after `console --manifest M --store S`.
    ///   - width: pane columns.
    ///   - height: pane rows.
    ///   - environment: extra environment (e.g. `NO_COLOR=1`).
    ///   - terminalType: a `TERM` for the console only (tmux sets its own for the pane).
    ///   - interactiveShell: run an interactive bash (with job control) in the pane instead of the console;
    ///     the test types ``consoleCommand`` itself.
    ///   - demo: open the built-in demo registry (with its typed settings) instead of the manifest.
    ///   - manifestJSON: the manifest to open, instead of ``manifestJSON``.
    ///   - namesRegistry: `false` to name neither a manifest nor a store (the console's own choice, with `HOME` and
    ///     `XDG_CONFIG_HOME` in the harness's folder).
    init(
        arguments: [String] = [], width: Int = 100, height: Int = 30, environment: [String: String] = [:],
        interactiveShell: Bool = false, terminalType: String? = nil, demo: Bool = false, manifestJSON: String? = nil,
        namesRegistry: Bool = true
    ) throws {
        binary = try BuildProducts.executable(named: "flagstaff").path
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        manifest = directory.appendingPathComponent("manifest.json")
        store = directory.appendingPathComponent("overrides.json")
        try Data((manifestJSON ?? Self.manifestJSON).utf8).write(to: manifest)
        let registry =
            namesRegistry ? (demo ? ["--demo"] : ["--manifest", manifest.path]) + ["--store", store.path] : []
        var environment = environment
        if !namesRegistry {
            environment["HOME"] = directory.path
            environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        }
        let console =
            (terminalType.map { "TERM=" + Self.quote($0) + " " } ?? "")
            + ([binary, "console"] + registry + arguments).map(Self.quote).joined(separator: " ")
        consoleCommand = console
        let script =
            interactiveShell
            ? "exec env PS1='$ ' bash --norc --noprofile -i"
            : "S1=$(stty -g); \(console); echo EXIT=$?; S2=$(stty -g); "
                + "if [ \"$S1\" = \"$S2\" ]; then echo STTY=same; else echo STTY=changed; fi; exec sleep 600"
        session = try TmuxSession(
            command: script, width: width, height: height, environment: environment,
            unsetting: (environment["NO_COLOR"] == nil ? ["NO_COLOR"] : [])
                + (namesRegistry ? [] : ["FLAGSTAFF_DEMO", "FLAGSTAFF_STORE", "FLAGSTAFF_MANIFEST"])
        )
    }

    deinit {
        session.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits for the console's first frame.
    @discardableResult
    func waitForConsole() async throws -> TmuxScreen {
        // The footer is the last row drawn: once it shows, the whole first frame has reached the pane.
        try await session.waitFor("the first frame") { $0.contains("Blue Text") && $0.contains("q quit") }
    }

    /// The store file's overrides (empty when the file does not exist).
    func storedOverrides() throws -> [String: String] {
        guard FileManager.default.fileExists(atPath: store.path) else { return [:] }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: store)) as? [String: Any]
        return object?["overrides"] as? [String: String] ?? [:]
    }

    /// Polls the store file until `predicate` holds (writes are synchronous, but the test reads from outside).
    func waitForStore(timeout: TimeInterval = 20, _ predicate: ([String: String]) -> Bool) async throws -> [String:
        String]
    {
        var overrides: [String: String] = [:]
        _ = try await poll(timeout: .milliseconds(Int64(timeout * 1_000))) { () throws -> Bool? in
            overrides = try storedOverrides()
            return predicate(overrides) ? true : nil
        }
        return overrides
    }

    /// Waits for the wrapper's `EXIT=` line and returns the status and whether `stty -g` was unchanged.
    func waitForExit(timeout: TimeInterval = 30) async throws -> (status: Int, sttyUnchanged: Bool) {
        // Whole lines only: in an interactive shell the typed command line also contains "EXIT=" and "STTY=".
        func lines(_ screen: TmuxScreen) -> [String] {
            screen.lines.indices.map { screen.text(line: $0).trimmingCharacters(in: .whitespaces) }
        }
        let screen = try await session.waitFor("exit", timeout: timeout) { screen in
            lines(screen).contains { $0 == "STTY=same" || $0 == "STTY=changed" }
        }
        guard let line = lines(screen).first(where: { $0.hasPrefix("EXIT=") && Int($0.dropFirst(5)) != nil }),
            let status = Int(line.dropFirst(5))
        else { throw HarnessError("no exit status on screen:\n\(screen.text)") }
        return (status, lines(screen).contains("STTY=same"))
    }

    /// The console process (the child of the pane's shell).
    func consolePID() async throws -> pid_t {
        let shell = try session.panePID()
        if let child = try await poll(timeout: .seconds(5), { ProcessSpawn.childProcesses(of: shell).first }) {
            return child
        }
        throw HarnessError("no console process under the pane's shell \(shell)")
    }

    /// Runs `flagstaff` with arguments against this harness's manifest and store (a second process).
    func runCLI(_ arguments: [String]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(
            URL(fileURLWithPath: binary), arguments + ["--manifest", manifest.path, "--store", store.path],
            environment: ProcessInfo.processInfo.environment)
    }

    private static func quote(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A harness failure with a message.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension TmuxScreen {
    /// The text of the line in reverse video (the console's selected row), trimmed.
    var selectedLine: String? {
        for line in lines.indices where lines[line].first?.reverse == true {
            return text(line: line).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
