import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `--store`, `--manifest` and `import` read from: `~`, missing directories, standard input, pipes,
/// process substitution, and the files that are not files (directories, devices). In process.
@Suite("input paths")
struct InputPathTests {
    static let manifest = #"{"name": "Piped", "flags": [{"key": "piped.flag", "default": true}]}"#

    @Test(arguments: [["list"], ["set", "blueText", "on"], ["export"]])
    func anExplicitStoreInAMissingDirectoryIsAnErrorNamingIt(command: [String]) async throws {
        let sandbox = try CLISandbox()
        let missing = sandbox.directory.appendingPathComponent("no-such-dir")
        let store = missing.appendingPathComponent("s.json").path
        for result in [
            try await sandbox.run(command + ["--store", store]),
            try await sandbox.run(command, environment: ["FLAGSTAFF_STORE": store]),
        ] {
            #expect(result.status == 1, "\(result)")
            #expect(
                result.standardError.hasPrefix(
                    "flagstaff: error: --store: the directory \(missing.path) does not exist"),
                "\(result)")
            #expect(!FileManager.default.fileExists(atPath: missing.path), "the directory was created")
        }
    }

    @Test func tildeExpandsWithHomeFromTheCommandContext() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("m.json", Self.manifest)
        let viaOption = try await sandbox.run([
            "set", "piped.flag", "off", "--store", "~/a.json", "--manifest", "~/m.json",
        ])
        #expect(viaOption.status == 0, "\(viaOption)")
        #expect(FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("a.json").path))
        let viaEnvironment = try await sandbox.run(
            ["set", "piped.flag", "off"],
            environment: ["FLAGSTAFF_STORE": "~/b.json", "FLAGSTAFF_MANIFEST": "~/m.json"])
        #expect(viaEnvironment.status == 0, "\(viaEnvironment)")
        #expect(FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("b.json").path))
        // Only `~` and `~/…`: another user's home is not guessed.
        let other = try await sandbox.run(["list", "--manifest", "~nobody/m.json"])
        #expect(other.status == 1)
        #expect(other.standardError.contains("~nobody/m.json: no such file or directory"), "\(other)")
    }

    @Test func theManifestIsReadFromStandardInput() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["list", "--manifest", "-"], stdin: Data(Self.manifest.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("piped.flag"), "\(result)")
    }

    @Test func importAndManifestCannotBothReadStandardInput() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["import", "-", "--manifest", "-"], stdin: Data("{}".utf8))
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("cannot both read standard input"))
    }

    /// What process substitution (`--manifest <(…)`) hands the command: `/dev/fd/N`, the read end of a pipe.
    @Test func manifestAndImportAreReadFromProcessSubstitutionPaths() async throws {
        let sandbox = try CLISandbox()
        let manifestPipe = try Self.pipe(with: Self.manifest)
        let importPipe = try Self.pipe(with: #"{"version":1,"overrides":{"piped.flag":"off"}}"#)
        let result = try await sandbox.runWithStore([
            "import", "/dev/fd/\(importPipe.fileHandleForReading.fileDescriptor)",
            "--manifest", "/dev/fd/\(manifestPipe.fileHandleForReading.fileDescriptor)",
        ])
        withExtendedLifetime((manifestPipe, importPipe)) {}
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.storedOverrides() == ["piped.flag": "off"])
    }

    @Test func aNamedPipeIsRead() async throws {
        let sandbox = try CLISandbox()
        let fifo = sandbox.directory.appendingPathComponent("manifest.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO for writing waits for the reader: write from a thread of its own.
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(Data(Self.manifest.utf8))
                try? handle.close()
            }
        }
        writer.start()
        let result = try await sandbox.runWithStore(["get", "piped.flag", "--manifest", fifo])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "on\n")
    }

    static let notFiles: [(path: String, message: String)] = [
        ("/dev/null", "/dev/null is a device, not a file"),
        ("/dev/full", "/dev/full is a device, not a file"),
        ("/tmp", "/tmp is a directory"),
    ]

    @Test(arguments: [["list", "--manifest", "PATH"], ["import", "PATH"]])
    func directoriesAndDevicesAreNamedForWhatTheyAre(command: [String]) async throws {
        let sandbox = try CLISandbox()
        for notFile in Self.notFiles {
            let result = try await sandbox.runWithStore(command.map { $0 == "PATH" ? notFile.path : $0 })
            #expect(result.status == 1, "\(result)")
            #expect(result.standardError.contains(notFile.message), "\(result)")
            #expect(!result.standardError.contains("NSCocoaErrorDomain"), "\(result)")
            #expect(!result.standardError.contains("MiB"), "\(result)")
        }
    }

    @Test func aRegularFileIsSizeCheckedBeforeReading() async throws {
        let sandbox = try CLISandbox()
        let path = sandbox.directory.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 64 << 20 + 1)  // sparse: nothing is written
        try handle.close()
        for command in [["list", "--manifest", path], ["import", path]] {
            let result = try await sandbox.runWithStore(command)
            #expect(result.status == 1, "\(result)")
            #expect(result.standardError.contains("huge.json is larger than 64 MiB"), "\(result)")
        }
    }

    @Test func anUnreadableFileSaysWhy() async throws {
        guard getuid() != 0 else { return }  // root reads anything
        let sandbox = try CLISandbox()
        let path = try sandbox.write("secret.json", Self.manifest)
        #expect(chmod(path, 0o000) == 0)
        let result = try await sandbox.runWithStore(["list", "--manifest", path])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("cannot read the file \(path): permission denied"), "\(result)")
    }

    /// A pipe holding `text`, its write end closed.
    private static func pipe(with text: String) throws -> Pipe {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try pipe.fileHandleForWriting.close()
        return pipe
    }
}
