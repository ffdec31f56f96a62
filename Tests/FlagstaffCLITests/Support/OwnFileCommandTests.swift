import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

/// The command line with links, FIFOs, devices, unwritable journals and folders where Flagstaff keeps its files
/// (docs/files.md): refused or reported, naming the file, and never written through.
@Suite struct OwnFileCommandTests {
    @Test func aLockFileThatIsALinkIsRefusedAndItsTargetKept() async throws {
        let sandbox = try CLISandbox()
        let victim = try sandbox.write("victim.txt", "precious\n")
        #expect(symlink(victim, sandbox.storePath + ".lock") == 0)
        let result = try await sandbox.runWithStore(["set", "blueText", "off"])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.standardError.contains("\(sandbox.storePath).lock")
                && result.standardError.contains("symbolic link (to \(victim))"), "\(result)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(sandbox.storeBytes() == nil)
    }

    @Test func aJournalThatCannotBeWrittenIsSaidAndHistoryAndUndoSayItIsUnreadable() async throws {
        let sandbox = try CLISandbox()
        let journal = sandbox.storePath + ".history.jsonl"
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)

        let set = try await sandbox.runWithStore(["set", "blueText", "on"])
        #expect(set.status == 0, "\(set)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"], "the journal never blocks a change")
        #expect(
            set.standardError.contains("was saved, but its journal could not be written (\(journal): ")
                && set.standardError.contains("directory"), "\(set)")

        let history = try await sandbox.runWithStore(["history"])
        #expect(history.status == 1, "\(history)")
        #expect(
            history.standardError.contains("cannot read the journal \(journal): it is a directory, not a file"),
            "\(history)")
        #expect(!history.standardError.contains("no changes"), "\(history)")

        let undo = try await sandbox.runWithStore(["undo"])
        #expect(undo.status == 1, "\(undo)")
        #expect(undo.standardError.contains("the journal \(journal) cannot be read"), "\(undo)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"])
    }

    // `list` said "no profiles in …" (status 0) for a mistyped folder.
    @Test(arguments: [["save", "x"], ["list"]])
    func anExplicitProfilesFolderMustExist(subcommand: [String]) async throws {
        let sandbox = try CLISandbox()
        let folder = sandbox.directory.appendingPathComponent("missing/dir").path
        let result = try await sandbox.runWithStore(["profile"] + subcommand + ["--profiles", folder])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.standardError.contains("\(folder)") && result.standardError.contains("does not exist"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("missing").path))
    }

    @Test func aFIFOAsTheStoreIsNamedAndNothingWaits() async throws {
        let sandbox = try CLISandbox()
        #expect(mkfifo(sandbox.storePath, 0o644) == 0)
        for arguments in [["list"], ["set", "blueText", "on"]] {
            let result = try await sandbox.runWithStore(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.standardError.contains("it is a FIFO (named pipe), not a file"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath + ".lock"))
    }

    @Test(arguments: ["/dev/null", "/dev/full"])
    func aDeviceAsTheStoreIsNamed(device: String) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["get", "blueText", "--store", device])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.standardError.contains("\(device)") && result.standardError.contains("it is a device"), "\(result)")
        #expect(!result.standardError.contains("corrupt"), "\(result)")
    }

    @Test(
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root to drop to an unprivileged user with setpriv (root ignores file permissions)"))
    func aReadOnlyStoreFolderReportsThePermissionForTheLockFile() async throws {
        let sandbox = try CLISandbox()
        chmod(sandbox.directory.path, 0o755)
        let folder = sandbox.directory.appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("overrides.json").path
        try Data(#"{"version":1,"overrides":{}}"#.utf8).write(to: URL(fileURLWithPath: store))
        chown(store, 65534, 65534)  // the user may write the file, not the folder
        chmod(folder.path, 0o555)
        let executable = try BuildProducts.executable(named: "flagstaff")
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", executable.path, "set", "blueText", "on",
                "--store", store,
            ],
            environment: sandbox.environment)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.standardError.contains("cannot create the lock file \(store).lock: Permission denied")
                && result.standardError.contains("mode 555"), "\(result)")
        #expect(!result.standardError.contains("No such file"), "\(result)")
    }
}
