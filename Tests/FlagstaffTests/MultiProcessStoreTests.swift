@testable import Flagstaff
import Foundation
import Testing

/// Real child processes writing one store file at once, and writers killed mid-write.
@Suite(.serialized) struct MultiProcessStoreTests {
    static var tool: URL? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("StoreStressTool") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test(.enabled(if: tool != nil, "the StoreStressTool binary is built next to the test bundle by `swift test`"))
    func concurrentWritersInSeveralProcessesLoseNothing() throws {
        let file = temporaryDirectory().appendingPathComponent("overrides.json")
        let processes = 6, writes = 40
        let children = try (0..<processes).map { index -> Process in
            let process = Process()
            process.executableURL = Self.tool
            process.arguments = ["write", file.path, "writer\(index)", "\(writes)"]
            try process.run()
            return process
        }
        for child in children {
            child.waitUntilExit()
            #expect(child.terminationStatus == 0)
        }
        let overrides = try FileOverrideStore(url: file).load()
        #expect(overrides.count == processes * writes)
        for index in 0..<processes {
            for write in 0..<writes {
                #expect(overrides["writer\(index).\(write)"] == (write.isMultiple(of: 2) ? .enabled : .disabled))
            }
        }
    }

    @Test(.enabled(if: tool != nil, "the StoreStressTool binary is built next to the test bundle by `swift test`"))
    func writerKilledMidWriteLeavesAParsableFileWithEveryCompletedWrite() throws {
        let directory = temporaryDirectory()
        let file = directory.appendingPathComponent("overrides.json")
        for round in 0..<20 {
            let process = Process()
            let output = Pipe()
            process.executableURL = Self.tool
            process.arguments = ["forever", file.path, "round\(round)"]
            process.standardOutput = output
            try process.run()
            // Let it complete a few writes, then kill it at an arbitrary point of its loop.
            var completed = Data()
            while !(String(decoding: completed, as: UTF8.self).contains("done \(2 + round % 5)")) {
                completed.append(output.fileHandleForReading.availableData)
            }
            Thread.sleep(forTimeInterval: Double(round % 4) * 0.0007)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            completed.append(output.fileHandleForReading.readDataToEndOfFile())
            let done = String(decoding: completed, as: UTF8.self).split(separator: "\n").compactMap { line in
                line.hasPrefix("done ") ? Int(line.dropFirst(5)) : nil
            }
            let overrides = try FileOverrideStore(url: file).load()  // must parse every time
            for index in done {
                #expect(overrides["round\(round).\(index)"] != nil, "round \(round): completed write \(index) lost")
            }
        }
        // No temporary files are left behind by completed writes (a killed writer may leave one).
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.count <= 20)
    }

    @Test(.enabled(if: tool != nil && getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "needs root to drop to an unprivileged user with setpriv (root ignores file permissions)"))
    func permissionDeniedIsAClearErrorAndTheFileIsUntouched() throws {
        let directory = temporaryDirectory()
        chmod(directory.path, 0o755)
        let file = directory.appendingPathComponent("overrides.json")
        let contents = Data(#"{"version":1,"overrides":{"blueText":"on"}}"#.utf8)
        try contents.write(to: file)
        chmod(file.path, 0o600)  // owned by root: unreadable for nobody
        let process = Process()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Self.tool!.path, "write", file.path, "x", "1"]
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(message.contains(file.path) && message.contains("Permission denied"), "stderr: \(message)")
        #expect(try Data(contentsOf: file) == contents)
    }
}
