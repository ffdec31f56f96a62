import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

/// The files Flagstaff keeps beside a store (lock, journal and its rotation, bisect state) and in a profiles folder
/// are never followed when a link: a planted link never makes a write truncate, append to, create, chown or chmod
/// the file it names, and the refusal names the link and where it points. Also: a FIFO or a device in the
/// store's place is named, not read.
@Suite struct PlantedLinkTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }
    var victim: URL { directory.appendingPathComponent("victim.txt") }
    let victimText = Data("precious\n".utf8)

    init() throws {
        try Data(#"{"version":1,"overrides":{"a":"on"}}"#.utf8).write(to: file)
        try victimText.write(to: victim)
    }

    private func status(_ path: String) -> stat {
        var info = stat()
        _ = stat(path, &info)
        return info
    }

    private func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & 0o170000 == 0o120000
    }

    private func expectVictimUntouched(_ comment: Comment? = nil) throws {
        #expect(try Data(contentsOf: victim) == victimText, comment)
        let info = status(victim.path)
        #expect(info.st_uid == getuid() && info.st_mode & 0o7777 == 0o644, comment)
    }

    // MARK: The lock file

    @Test func aLockFileThatIsALinkIsRefusedAndWhatItNamesIsUntouched() throws {
        chmod(victim.path, 0o644)
        #expect(symlink(victim.path, file.path + ".lock") == 0)
        if getuid() == 0 { chown(file.path, 65534, 65534) }  // root on a user's store: no chown through the link
        let error = #expect(throws: OverrideStoreError.self) {
            _ = try FileOverrideStore(url: file).write(["b": .set(.on)])
        }
        let message = error.map { "\($0)" } ?? ""
        #expect(
            message.contains("\(file.path).lock") && message.contains("symbolic link (to \(victim.path))"), "\(message)"
        )
        try expectVictimUntouched()
        #expect(try FileOverrideStore(url: file).load() == ["a": .on], "nothing written without the lock")
    }

    @Test func aLockFileLinkedToNothingIsNotCreated() throws {
        let missing = directory.appendingPathComponent("created-by-nobody")
        #expect(symlink(missing.path, file.path + ".lock") == 0)
        #expect(throws: OverrideStoreError.self) { _ = try FileOverrideStore(url: file).write(["b": .set(.on)]) }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func aLockFileWithAnotherHardLinkIsRefused() throws {
        #expect(link(victim.path, file.path + ".lock") == 0)
        let error = #expect(throws: OverrideStoreError.self) {
            _ = try FileOverrideStore(url: file).write(["b": .set(.on)])
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("2 hard links"))
        #expect(try Data(contentsOf: victim) == victimText)
    }

    // MARK: The journal

    @Test func aJournalThatIsALinkIsNotWrittenAndTheChangeSaysSo() throws {
        #expect(symlink(victim.path, file.path + ".history.jsonl") == 0)
        let store = try FileOverrideStore(url: file)
        let receipt = try store.write(["b": .set(.on)], known: nil)
        #expect(try FileOverrideStore(url: file).load() == ["a": .on, "b": .on], "the journal never blocks a change")
        let message = receipt.journalError.map { "\($0)" } ?? ""
        #expect(message.contains("\(file.path).history.jsonl") && message.contains("symbolic link"), "\(message)")
        try expectVictimUntouched()
        #expect(isLink(file.path + ".history.jsonl"))
        let problems = try #require(try store.journal()).read().problems
        #expect(problems.contains { $0.reason.contains("symbolic link") }, "history reads no line through it")
    }

    @Test func aJournalLinkedToNothingIsNotCreated() throws {
        let missing = directory.appendingPathComponent("sub/created")
        try FileManager.default.createDirectory(
            at: missing.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(symlink(missing.path, file.path + ".history.jsonl") == 0)
        _ = try FileOverrideStore(url: file).write(["b": .set(.on)])
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func aRotatedJournalThatIsALinkIsReplacedNotWrittenThrough() throws {
        let store = try FileOverrideStore(url: file, journal: JournalOptions(maxBytes: 4096))
        // Over 4 KiB of journal (the smallest rotation size): the next append rotates it.
        _ = try store.write(
            OverrideChange(Dictionary(uniqueKeysWithValues: (0..<100).map { ("key\($0)", OverrideEdit.set(.on)) })))
        #expect(symlink(victim.path, file.path + ".history.jsonl.1") == 0)
        let receipt = try store.write(["c": .set(.on)], known: nil)
        #expect(receipt.journalError == nil)
        try expectVictimUntouched()
        #expect(!isLink(file.path + ".history.jsonl.1"), "the rotation renamed the journal over the link")
    }

    // MARK: The bisect state

    @Test func aBisectStateThatIsALinkIsRefusedAndWhatItNamesIsUntouched() throws {
        _ = try FileOverrideStore(url: file).write(["b": .set(.on), "c": .set(.on)])
        #expect(symlink(victim.path, file.path + ".bisect.json") == 0)
        let error = #expect(throws: BisectError.self) { try FileOverrideStore(url: file).startBisect() }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("\(file.path).bisect.json") && message.contains("symbolic link"), "\(message)")
        try expectVictimUntouched()
        #expect(try FileOverrideStore(url: file).load() == ["a": .on, "b": .on, "c": .on])
    }

    @Test func aBisectStateLinkedToNothingIsNotCreated() throws {
        _ = try FileOverrideStore(url: file).write(["b": .set(.on), "c": .set(.on)])
        let missing = directory.appendingPathComponent("created-by-nobody")
        #expect(symlink(missing.path, file.path + ".bisect.json") == 0)
        #expect(throws: BisectError.self) { try FileOverrideStore(url: file).startBisect() }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    // MARK: Profiles

    @Test func aProfileThatIsALinkIsNeitherReadNorWrittenThrough() throws {
        let library = ProfileLibrary(folder: directory.appendingPathComponent("profiles"))
        try FileManager.default.createDirectory(at: library.folder, withIntermediateDirectories: true)
        let profileFile = try library.url(for: "qa")
        #expect(symlink(victim.path, profileFile.path) == 0)
        let saved = #expect(throws: ProfileError.self) { try library.save(Profile(name: "qa", overrides: ["a": .on])) }
        #expect("\(saved.map { "\($0)" } ?? "")".contains("symbolic link"))
        let loaded = #expect(throws: ProfileError.self) { try library.load("qa") }
        #expect("\(loaded.map { "\($0)" } ?? "")".contains("symbolic link"))
        try expectVictimUntouched()
        #expect(isLink(profileFile.path))
    }

    @Test func anExplicitProfilesFolderIsNotCreated() throws {
        let folder = directory.appendingPathComponent("missing/profiles")
        let library = ProfileLibrary(folder: folder, createsFolder: false)
        let error = #expect(throws: ProfileError.self) { try library.save(Profile(name: "qa", overrides: [:])) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().path))
        try ProfileLibrary(folder: folder).save(Profile(name: "qa", overrides: [:]))  // the default folder is made
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("qa.json").path))
    }

    // MARK: Not a file

    @Test func aFIFOAsTheStoreIsNamedWithoutBeingOpened() async throws {
        let fifo = directory.appendingPathComponent("fifo.json")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let store = try FileOverrideStore(url: fifo)
        // Opening a FIFO for reading waits for a writer: the test would hang before the fix.
        let read = #expect(throws: OverrideStoreError.self) { _ = try store.load() }
        #expect("\(read.map { "\($0)" } ?? "")".contains("it is a FIFO (named pipe), not a file"))
        let write = #expect(throws: OverrideStoreError.self) { _ = try store.write(["a": .set(.on)]) }
        #expect("\(write.map { "\($0)" } ?? "")".contains("FIFO"))
        #expect(!FileManager.default.fileExists(atPath: fifo.path + ".lock"), "nothing created beside it")
    }

    @Test(arguments: ["/dev/null", "/dev/full"])
    func aDeviceAsTheStoreIsNamed(device: String) throws {
        let store = try FileOverrideStore(url: URL(fileURLWithPath: device))
        let read = #expect(throws: OverrideStoreError.self) { _ = try store.load() }
        let message = read.map { "\($0)" } ?? ""
        #expect(message.contains(device) && message.contains("it is a device"), "\(message)")
        #expect(!message.contains("corrupt"), "\(message)")
        let lockExisted = FileManager.default.fileExists(atPath: device + ".lock")
        #expect(throws: OverrideStoreError.self) { _ = try store.write(["a": .set(.on)]) }
        if !lockExisted, FileManager.default.fileExists(atPath: device + ".lock") {
            unlink(device + ".lock")
            Issue.record("a lock file was created in /dev")
        }
    }
}
