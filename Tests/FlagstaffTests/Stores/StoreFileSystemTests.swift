import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

/// How `FileOverrideStore` writes respect the file system: links, modes, owners, size, other members, temporary
/// files of killed writers, and waits for another writer's lock.
@Suite struct StoreFileSystemTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o7777
    }

    private func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & 0o170000 == 0o120000
    }

    // MARK: Links

    @Test func aLinkIsWrittenThroughToItsTargetFollowingAChain() throws {
        let real = directory.appendingPathComponent("real")
        let links = directory.appendingPathComponent("links")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        let target = real.appendingPathComponent("store.json")
        try Data(#"{"version":1,"overrides":{"a":"on"}}"#.utf8).write(to: target)
        // links/first.json -> ../real/store.json (relative); links/second.json -> /abs/links/first.json
        #expect(symlink("../real/store.json", links.appendingPathComponent("first.json").path) == 0)
        let second = links.appendingPathComponent("second.json")
        #expect(symlink(links.appendingPathComponent("first.json").path, second.path) == 0)

        _ = try FileOverrideStore(url: second).write(["b": .set(.off)])

        #expect(isLink(second.path) && isLink(links.appendingPathComponent("first.json").path), "links stay links")
        #expect(try FileOverrideStore(url: target).load() == ["a": .enabled, "b": .disabled])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: links.path).sorted() == ["first.json", "second.json"])
        #expect(FileManager.default.fileExists(atPath: target.path + ".lock"), "the lock is beside the target")
    }

    @Test func aDanglingLinkIsAClearErrorAndNothingIsCreated() throws {
        let missing = directory.appendingPathComponent("gone/store.json")
        #expect(symlink(missing.path, file.path) == 0)
        let error = #expect(throws: OverrideStoreError.self) {
            try FileOverrideStore(url: file).write(["a": .set(.on)])
        }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains(file.path) && message.contains("\(missing.path), which does not exist"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["overrides.json"])
        #expect(isLink(file.path))
    }

    // MARK: Mode and owner

    @Test(arguments: [0o600, 0o640, 0o666] as [mode_t])
    func theModeIsKept(fileMode: mode_t) throws {
        try Data(#"{"version":1,"overrides":{}}"#.utf8).write(to: file)
        chmod(file.path, fileMode)
        _ = try FileOverrideStore(url: file).write(["a": .set(.on)])
        #expect(mode(file.path) == fileMode)
        #expect(try FileOverrideStore(url: file).load() == ["a": .enabled])
    }

    @Test(.enabled(if: getuid() == 0, "needs root to own a file as another user"))
    func rootKeepsAnotherUsersOwnershipAndMode() throws {
        try Data(#"{"version":1,"overrides":{}}"#.utf8).write(to: file)
        chmod(file.path, 0o600)
        #expect(chown(file.path, 65534, 65534) == 0)
        _ = try FileOverrideStore(url: file).write(["a": .set(.on)])
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        #expect(info.st_uid == 65534 && info.st_gid == 65534)
        #expect(info.st_mode & 0o7777 == 0o600)
        var lock = stat()
        #expect(stat(file.path + ".lock", &lock) == 0)
        #expect(lock.st_uid == 65534, "the lock file root created belongs to the store's owner too")
    }

    // MARK: Size and layout

    @Test func theWriterRefusesWhatTheReaderWouldRefuse() throws {
        let before = Data(#"{"version":1,"overrides":{"a":"on"}}"#.utf8)
        try before.write(to: file)
        let store = try FileOverrideStore(url: file, lockWait: .init(), sizeLimit: 300)
        let many = Dictionary(uniqueKeysWithValues: (0..<20).map { ("flag.number.\($0)", OverrideValue.on) })
        let error = #expect(throws: OverrideStoreError.self) {
            try store.write(OverrideChange(many.mapValues(OverrideEdit.set)))
        }
        #expect(error.map { "\($0)" }?.contains("over the 300 bytes a reader accepts; nothing was written") == true)
        #expect(try Data(contentsOf: file) == before)
        _ = try store.write(["b": .set(.off)])  // what fits is still written
        #expect(try store.load() == ["a": .enabled, "b": .disabled])
    }

    @Test func largeStoresAreWrittenCompactly() throws {
        let count = 40_000
        let overrides = Dictionary(
            uniqueKeysWithValues: (0..<count).map { ("flag.number.\($0)", OverrideValue.on) })
        let store = try FileOverrideStore(url: file)
        _ = try store.write(OverrideChange(overrides.mapValues(OverrideEdit.set)))
        let data = try Data(contentsOf: file)
        #expect(data.filter { $0 == 0x0A }.count == 1, "one line")
        #expect(data.starts(with: Data(#"{"version":1,"overrides":{"flag.number.0":"on","#.utf8)))
        #expect(try store.load() == overrides)
        _ = try store.write(
            OverrideChange(
                Dictionary(uniqueKeysWithValues: overrides.keys.dropFirst(10).map { ($0, OverrideEdit.remove) })))
        #expect(try Data(contentsOf: file).filter { $0 == 0x0A }.count > 10, "small again: one entry a line")
    }

    // MARK: Other members

    @Test func unknownTopLevelMembersAreKeptOnRewrite() throws {
        let text = """
            {"comment": "edited by hand",
             "version": 1,
             "meta": {"owner": "ops", "weights": [1, 2.50, 1e3], "nested": {"x": null}},
             "overrides": {"a": "on"}, "flag": true}
            """
        try Data(text.utf8).write(to: file)
        _ = try FileOverrideStore(url: file).write(["b": .set(.off)])
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written.contains(#""comment": "edited by hand""#))
        #expect(written.contains(#""meta": {"owner": "ops", "weights": [1, 2.50, 1e3], "nested": {"x": null}}"#))
        #expect(written.contains(#""flag": true"#))
        let contents = try OverrideFileFormat.decodeContents(Data(written.utf8), file: "x", rules: .store)
        #expect(contents.overrides == ["a": .enabled, "b": .disabled])
        #expect(contents.otherMembers.map(\.name) == ["comment", "meta", "flag"])
    }

    // MARK: Temporary files

    @Test func temporaryFilesOfWritersThatAreGoneAreRemovedAndLiveOnesKept() async throws {
        let ended = try CommandRunner.start(URL(fileURLWithPath: "/bin/true"), [])
        #expect(try await ended.finish().status == 0)
        let gone = ended.pid
        let names = [
            ".overrides.json.\(gone).17.tmp",  // its writer is gone
            ".overrides.json.\(getpid()).18.tmp",  // this process: alive
            ".overrides.json.\(getppid()).19.tmp",  // the parent: alive
            ".overrides.json.notapid.tmp", ".other.json.\(gone).20.tmp",  // not this store's temporary files
        ]
        for name in names { try Data("{".utf8).write(to: directory.appendingPathComponent(name)) }
        _ = try FileOverrideStore(url: file).write(["a": .set(.on)])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(!left.contains(names[0]))
        #expect(left.isSuperset(of: names.dropFirst()))
    }

    /// The bisect state and profiles are replaced through `OwnFile.writeAtomically` (the launch snapshot too):
    /// each write removes the temporary files that a killed writer of the same file left, as the store's writes do.
    @Test func temporaryFilesOfKilledBisectAndProfileWritersAreRemovedByTheNextWrite() async throws {
        let ended = try CommandRunner.start(URL(fileURLWithPath: "/bin/true"), [])
        #expect(try await ended.finish().status == 0)
        let gone = ended.pid
        try Data(#"{"version":1,"overrides":{"a":"on","b":"off"}}"#.utf8).write(to: file)
        let profiles = ProfileLibrary.defaultFolder(forStore: file)
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        let abandoned = [
            directory.appendingPathComponent(".overrides.json.bisect.json.\(gone).7.tmp"),
            profiles.appendingPathComponent(".qa.json.\(gone).8.tmp"),
            directory.appendingPathComponent(".other.json.\(gone).9.tmp"),
        ]
        let live = directory.appendingPathComponent(".overrides.json.bisect.json.\(getppid()).10.tmp")
        for url in abandoned + [live] { try Data("{".utf8).write(to: url) }

        _ = try FileOverrideStore(url: file).startBisect()
        _ = try ProfileLibrary(folder: profiles).save(Profile(name: "qa", overrides: ["a": .off], removals: []))
        try OwnFile.writeAtomically(Data("{}".utf8), to: directory.appendingPathComponent("other.json").path)

        for url in abandoned {
            #expect(!FileManager.default.fileExists(atPath: url.path), "\(url.lastPathComponent) is left")
        }
        #expect(FileManager.default.fileExists(atPath: live.path), "a live writer's temporary file is kept")
    }

    // MARK: Lock

    /// `flock` works on a read-only descriptor: a lock file others may read lets them stop every write.
    @Test func theLockFileIsOpenOnlyToThoseWhoMayWriteTheStore() throws {
        _ = try FileOverrideStore(url: file).write(["a": .set(.on)])
        #expect(mode(file.path + ".lock") == 0o600, "a new store: its owner only")

        chmod(file.path + ".lock", 0o644)  // made by an earlier version
        _ = try FileOverrideStore(url: file).write(["a": .set(.off)])
        #expect(mode(file.path + ".lock") == 0o600, "a readable lock file is narrowed at the next write")

        chmod(file.path, 0o664)  // a store the group shares
        chmod(file.path + ".lock", 0o666)
        _ = try FileOverrideStore(url: file).write(["a": .set(.on)])
        #expect(mode(file.path + ".lock") == 0o660, "the group that may write the store may lock it; others may not")
        #expect(FileOverrideStore.lockPermissions(forStore: 0o444) == 0o600)
        #expect(FileOverrideStore.lockPermissions(forStore: 0o666) == 0o666)
    }

    @Test(
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"),
            "needs root to drop to an unprivileged user with setpriv, and util-linux's flock"))
    func anotherUserCannotHoldTheLock() async throws {
        chmod(directory.path, 0o755)
        _ = try FileOverrideStore(url: file).write(["a": .set(.on)])
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/flock", "-n", file.path + ".lock", "true"],
            environment: ProcessInfo.processInfo.environment)
        #expect(result.status != 0, "another user took the lock: \(result)")
        #expect(result.standardError.contains("Permission denied"), "\(result)")
    }

    @Test func theLockRecordsItsHolderAndAWaitingWriterIsToldAndGivesUp() async throws {
        let before = Data(#"{"version":1,"overrides":{"a":"on"}}"#.utf8)
        try before.write(to: file)
        let lock = try await StoreLockHolder.onThread(path: file.path)
        defer { lock.release() }
        let record = try String(contentsOfFile: file.path + ".lock", encoding: .utf8)
        #expect(record.hasPrefix("\(getpid()) "))

        let clock = ManualClock()
        let (notices, continuation) = AsyncStream.makeStream(of: (FileOverrideStore.LockHolder, Duration).self)
        let store = try FileOverrideStore(
            url: file,
            lockWait: .init(timeout: .seconds(10), noticeAfter: .seconds(1), clock: clock) { holder, waited in
                continuation.yield((holder, waited))
            })
        let writer = Task {
            try await offCooperativePool { () throws -> [String: OverrideValue] in
                try store.write(["a": .set(.off)]).overrides
            }
        }
        // Time moves only when advanced: in steps until the writer speaks.
        var iterator = notices.makeAsyncIterator()
        let advancing = Task {
            while !Task.isCancelled {
                clock.advance(by: .milliseconds(100))
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        let notice = await iterator.next()
        #expect(notice?.0.pid == getpid())
        #expect(notice?.0.description.hasPrefix("pid \(getpid()) (") == true)
        #expect((notice?.1 ?? .zero) >= .seconds(1), "not before 1 s")
        #expect((notice?.1 ?? .zero) < .seconds(10))
        let result = await writer.result
        advancing.cancel()
        guard case .failure(let failure) = result, let error = failure as? OverrideStoreError, error.isLockTimeout,
            let holder = error.holder, let waited = error.waited
        else {
            Issue.record("expected a lock timeout, got \(result)")
            return
        }
        #expect(error.path == file.path && holder.pid == getpid() && waited >= .seconds(10))
        #expect("\(error)".contains("gave up after 10"))
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func aWriterWaitsForTheLockAndWritesWhenItIsReleased() async throws {
        let lock = try await StoreLockHolder.onThread(path: file.path)
        let store = try FileOverrideStore(url: file, lockWait: .init(timeout: nil, clock: ManualClock()))
        let writer = Task { try await offCooperativePool { try store.write(["a": .set(.on)]) } }
        lock.release()
        #expect(try await writer.value.overrides == ["a": .enabled])
        #expect(try String(contentsOfFile: file.path + ".lock", encoding: .utf8).isEmpty, "released: no holder")
    }

    @Test func aZeroTimeoutGivesUpAtOnce() async throws {
        let lock = try await StoreLockHolder.onThread(path: file.path)
        defer { lock.release() }
        let store = try FileOverrideStore(url: file, lockWait: .init(timeout: .zero, clock: ManualClock()))
        #expect(throws: OverrideStoreError.self) { try store.write(["a": .set(.on)]) }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
