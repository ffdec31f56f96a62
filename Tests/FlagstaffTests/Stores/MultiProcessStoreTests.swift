import FlagstaffTestSupport
import Foundation
import Testing

@testable import Flagstaff

/// Real child processes writing one store file at once, and writers killed mid-write.
@Suite(.serialized) struct MultiProcessStoreTests {
    static var tool: URL? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map {
            $0.appendingPathComponent("StoreStressTool")
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts `count` StoreStressTool processes at once, the `index`th with `arguments(index)`, and returns their
    /// exit statuses once all have ended.
    static func runWriters(_ count: Int, arguments: (Int) -> [String]) async throws -> [Int32] {
        let tool = try #require(Self.tool)
        let writers = try (0..<count).map { try CommandRunner.start(tool, arguments($0)) }
        var statuses: [Int32] = []
        for writer in writers { statuses.append(try await writer.finish(timeout: .seconds(300)).status) }
        return statuses
    }

    /// Starts a StoreStressTool writer that reports `done N` after each write (`forever`, `forever-bulk`), waits
    /// until it has reported write `completed`, lets it run `pause` more, kills it with SIGKILL and returns the
    /// writes it reported complete.
    static func killWriter(_ arguments: [String], after completed: Int, pause: Duration = .zero) async throws -> [Int] {
        let writer = try CommandRunner.start(try #require(Self.tool), arguments)
        // A writer that ends on its own (an error) stops the wait: the caller's checks report it.
        _ = try await writer.waitForOutput(containing: "done \(completed)\n", timeout: .seconds(120))
        if pause > .zero { try await Task.sleep(for: pause) }
        return writer.stop().standardOutput.split(separator: "\n").compactMap { line in
            line.hasPrefix("done ") ? Int(line.dropFirst(5)) : nil
        }
    }

    @Test(.enabled(if: tool != nil, "the StoreStressTool binary is built next to the test bundle by `swift test`"))
    func concurrentWritersInSeveralProcessesLoseNothing() async throws {
        let file = temporaryDirectory().appendingPathComponent("overrides.json")
        let processes = 6
        let writes = 40
        let statuses = try await Self.runWriters(processes) { ["write", file.path, "writer\($0)", "\(writes)"] }
        #expect(statuses == Array(repeating: 0, count: processes))
        let overrides = try FileOverrideStore(url: file).load()
        #expect(overrides.count == processes * writes)
        for index in 0..<processes {
            for write in 0..<writes {
                #expect(overrides["writer\(index).\(write)"] == (write.isMultiple(of: 2) ? .enabled : .disabled))
            }
        }
    }

    @Test(.enabled(if: tool != nil, "the StoreStressTool binary is built next to the test bundle by `swift test`"))
    func writerKilledMidWriteLeavesAParsableFileWithEveryCompletedWrite() async throws {
        let directory = temporaryDirectory()
        let file = directory.appendingPathComponent("overrides.json")
        for round in 0..<20 {
            let (done, overrides) = try await Self.killWriterMidWrite(round: round, file: file)
            for index in done {
                #expect(overrides["round\(round).\(index)"] != nil, "round \(round): completed write \(index) lost")
            }
        }
        // No temporary files are left behind by completed writes; a killed writer's is removed by the next
        // writer, so only the last round's can remain.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers.count <= 1, "\(leftovers)")
    }

    /// Starts a writer, lets it complete a few writes, kills it at an arbitrary point of its loop, and returns
    /// the writes it reported complete and the file's contents (which must parse).
    private static func killWriterMidWrite(round: Int, file: URL) async throws -> ([Int], [String: OverrideValue]) {
        let done = try await killWriter(
            ["forever", file.path, "round\(round)"], after: 2 + round % 5, pause: .microseconds(700 * (round % 4)))
        let overrides = try FileOverrideStore(url: file).load()  // must parse every time
        return (done, overrides)
    }

    @Test(
        .enabled(
            if: tool != nil && getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root to drop to an unprivileged user with setpriv (root ignores file permissions)"))
    func permissionDeniedIsAClearErrorAndTheFileIsUntouched() async throws {
        let directory = temporaryDirectory()
        chmod(directory.path, 0o755)
        let file = directory.appendingPathComponent("overrides.json")
        let contents = Data(#"{"version":1,"overrides":{"blueText":"on"}}"#.utf8)
        try contents.write(to: file)
        chmod(file.path, 0o600)  // owned by root: unreadable for nobody
        let (status, message) = try await Self.writeAsNobody(file)
        #expect(status == 1)
        #expect(message.contains(file.path) && message.contains("Permission denied"), "stderr: \(message)")
        #expect(try Data(contentsOf: file) == contents)
    }

    /// Runs StoreStressTool as uid 65534 writing one override to `file`; returns its status and standard error.
    private static func writeAsNobody(_ file: URL) async throws -> (Int32, String) {
        let arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", try #require(Self.tool).path]
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"), arguments + ["write", file.path, "x", "1"],
            environment: ProcessInfo.processInfo.environment)
        return (result.status, result.standardError)
    }

    @Test(
        .enabled(
            if: tool != nil && getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root to drop to an unprivileged user with setpriv (root ignores file permissions)"),
        arguments: [true, false])
    func aFileTheUserMayNotWriteIsRefusedEvenInAWritableDirectory(ownFileReadOnly: Bool) async throws {
        let directory = temporaryDirectory()
        chmod(directory.path, 0o777)  // writable by anyone: a rename would succeed
        let file = directory.appendingPathComponent("overrides.json")
        let contents = Data(#"{"version":1,"overrides":{"blueText":"on"}}"#.utf8)
        try contents.write(to: file)
        if ownFileReadOnly {
            chown(file.path, 65534, 65534)  // the user's own file, mode 444
            chmod(file.path, 0o444)
        } else {
            chmod(file.path, 0o644)  // root's file, readable by the user
        }
        let (status, message) = try await Self.writeAsNobody(file)
        #expect(status == 1)
        #expect(message.contains(file.path) && message.contains("Permission denied"), "stderr: \(message)")
        #expect(message.contains(ownFileReadOnly ? "mode 444" : "owned by uid 0"), "stderr: \(message)")
        #expect(try Data(contentsOf: file) == contents)
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_uid == (ownFileReadOnly ? 65534 : 0))
    }

    @Test(.enabled(if: tool != nil, "the StoreStressTool binary is built next to the test bundle by `swift test`"))
    func aWriterGivesUpOnALockAnotherProcessHoldsAndNamesIt() async throws {
        let file = temporaryDirectory().appendingPathComponent("overrides.json")
        let lock = try await StoreLockHolder.inAnotherProcess(tool: try #require(Self.tool), path: file.path)
        defer { lock.release() }
        let store = try FileOverrideStore(url: file, lockWait: .init(timeout: .milliseconds(200)))
        let error = #expect(throws: OverrideStoreError.self) { try store.write(["a": .set(.on)]) }
        let who = try #require(error?.holder, "a lock timeout names the holder: \(String(describing: error))")
        #expect(who.pid == lock.pid)
        #expect(who.command == "StoreStressTool hold \(file.path)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
