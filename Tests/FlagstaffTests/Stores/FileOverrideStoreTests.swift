import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

@Suite struct FileOverrideStoreTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }

    @Test func missingFileMeansNoOverrides() throws {
        let store = try FileOverrideStore(url: file)
        #expect(try store.load().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func writesTheVersionedFormatAndResetRemovesTheKey() throws {
        let store = try FileOverrideStore(url: directory.appendingPathComponent("nested/dir/overrides.json"))
        _ = try store.write(["list.infiniteScroll": .set(.on), "blueText": .set(.off)])
        let written = try String(contentsOf: store.url, encoding: .utf8)
        let json = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any]
        #expect(json?["version"] as? Int == 1)
        #expect(json?["overrides"] as? [String: String] == ["list.infiniteScroll": "on", "blueText": "off"])
        _ = try store.write(["blueText": .remove])
        #expect(try store.load() == ["list.infiniteScroll": .enabled])
        #expect(try !String(contentsOf: store.url, encoding: .utf8).contains("blueText"))
    }

    @Test func keysWithQuotesAndControlCharactersRoundTripAsEscapedJSON() throws {
        let store = try FileOverrideStore(url: file)
        let keys = ["say \"hi\"", "back\\slash", "tab\there", "esc\u{1B}[2J", "nel\u{85}", "del\u{7F}", "café", "功能"]
        _ = try store.write(OverrideChange(Dictionary(uniqueKeysWithValues: keys.map { ($0, OverrideEdit.set(.on)) })))
        let written = try String(contentsOf: store.url, encoding: .utf8)
        #expect(
            !written.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
            "control characters are escaped in the file")
        #expect(
            written.contains(#""esc\u001B[2J""#) && written.contains(#""nel\u0085""#)
                && written.contains(#""tab\there""#))
        let json = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any]
        #expect((json?["overrides"] as? [String: String]).map { Set($0.keys) } == Set(keys))
        #expect(try store.load() == Dictionary(uniqueKeysWithValues: keys.map { ($0, OverrideValue.on) }))
    }

    @Test func registryKeepsUnknownKeys() async throws {
        try Data(#"{"version":1,"overrides":{"someOtherApp.flag":"on"}}"#.utf8).write(to: file)
        let features = FeatureRegistry(
            AppFeatures(), store: try FileOverrideStore(url: file), options: RegistryOptions(storeWatchInterval: nil))
        features.blueText.override = .enabled
        try await features.flush()
        let store = try FileOverrideStore(url: file)
        #expect(try store.load() == ["someOtherApp.flag": .enabled, "blueText": .enabled])
    }

    @Test(arguments: [
        ("", "empty"),
        ("{not json", "not valid JSON"),
        ("[1,2]", "JSON object"),
        (#"{"overrides":{}}"#, "missing \"version\""),
        (#"{"version":2,"overrides":{}}"#, "unsupported \"version\" 2"),
        (#"{"version":1}"#, "missing \"overrides\""),
        (#"{"version":1,"overrides":{"a":1,"a":2}}"#, #"$.overrides["a"]: the name "a" appears more than once"#),
    ])
    func corruptFilesAreReportedWithPathAndReasonAndNeverOverwritten(contents: String, reason: String) throws {
        try Data(contents.utf8).write(to: file)
        let store = try FileOverrideStore(url: file)
        let loadError = #expect(throws: OverrideStoreError.self) { try store.load() }
        let message = loadError.map { "\($0)" } ?? ""
        #expect(message.contains(file.path) && message.contains(reason), "message: \(message)")
        #expect(throws: OverrideStoreError.self) { try store.write(["blueText": .set(.on)]) }
        #expect(try Data(contentsOf: file) == Data(contents.utf8))
    }

    /// Entries of any JSON type are the registry's to judge (a setting's value, or a wrong-typed flag entry that
    /// is reported and ignored): the store reads them, and writes of other keys keep them byte for byte.
    @Test func entriesOfAnyTypeAreReadAndKept() throws {
        let contents = #"{"version":1,"overrides":{"blueText":"maybe","config":{"b":[1,2],"a":true},"n":2.5}}"#
        try Data(contents.utf8).write(to: file)
        let store = try FileOverrideStore(url: file)
        #expect(
            try store.load().mapValues(\.json) == [
                "blueText": #""maybe""#, "config": #"{"a":true,"b":[1,2]}"#, "n": "2.5",
            ])
        try store.write(["other": .set(.on)])
        #expect(try store.load()["config"]?.json == #"{"a":true,"b":[1,2]}"#)
        #expect(try store.load()["blueText"] == OverrideValue(string: "maybe"))
    }

    @Test func registryOnCorruptFileFallsBackToDefaultsAndLosesNothing() async throws {
        let corrupt = Data(#"{"version":1,"overrides":{"blueText":"on""#.utf8)
        try corrupt.write(to: file)
        let features = FeatureRegistry(
            AppFeatures(), store: try FileOverrideStore(url: file), options: RegistryOptions(storeWatchInterval: nil))
        #expect(features.storeError is OverrideStoreError)
        #expect(!features.blueText.enabled)
        #expect(throws: OverrideStoreError.self) { try features.setOverride(.enabled, for: features.debugLogging) }
        features.blueText.override = .enabled  // the non-throwing setter records the error once its write fails
        // Whether the write failed before `flush()` or while it waited, the flush reports it, once.
        await #expect(throws: OverrideStoreError.self) { try await features.flush() }
        await #expect(throws: Never.self) { try await features.flush() }
        #expect(!features.blueText.enabled)
        #expect(features.storeError != nil)
        #expect(try Data(contentsOf: file) == corrupt)
        // Repairing the file recovers.
        try Data(#"{"version":1,"overrides":{"blueText":"on"}}"#.utf8).write(to: file)
        features.refreshFromStore()
        #expect(features.storeError == nil)
        #expect(features.blueText.enabled)
    }

    /// `flush()` promises durability: a write that failed before it was called is still reported (once).
    @Test func aFlushAfterTheWriteAlreadyFailedStillThrows() async throws {
        try Data(#"{"version":1,"overrides":{"blueText":"on""#.utf8).write(to: file)
        let features = FeatureRegistry(
            AppFeatures(), store: try FileOverrideStore(url: file), options: RegistryOptions(storeWatchInterval: nil))
        // Another process holds the lock while the app sets the flag: the write waits for it, so the value read
        // next is the setter's, not one the failed write already took back.
        let lock = try await StoreLockHolder.onThread(path: file.path)
        features.blueText.override = .enabled
        #expect(features.blueText.enabled, "in force at once")
        lock.release()
        // The member goes back to the store's value when its write fails: the write is over before the flush.
        #expect(await eventually { !features.blueText.enabled })
        await #expect(throws: OverrideStoreError.self) { try await features.flush() }
        await #expect(throws: Never.self) { try await features.flush() }
    }

    @Test func directoryIsNotAStore() throws {
        #expect(throws: OverrideStoreError.self) { try FileOverrideStore(url: directory) }
        #expect(throws: OverrideStoreError.self) {
            try FileOverrideStore(url: URL(string: "https://example.com/x.json")!)
        }
    }

    @Test func unwritableDirectoryGivesAClearError() throws {
        let blocker = directory.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)  // a file where a directory is needed
        let store = try FileOverrideStore(url: blocker.appendingPathComponent("overrides.json"))
        let error = #expect(throws: OverrideStoreError.self) { try store.write(["a": .set(.on)]) }
        #expect(error.map { "\($0)" }?.contains(blocker.path) == true)
    }

    @Test func defaultLocationFollowsXDG() {
        let url = FileOverrideStore.defaultURL(name: "My App/1")
        #expect(url.lastPathComponent == "My-App-1.json")
        #expect(url.deletingLastPathComponent().lastPathComponent == "flagstaff")
        if let xdg = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            #expect(url.path.hasPrefix(xdg))
        } else {
            #expect(url.path.contains("/.config/flagstaff/"))
        }
    }

    @Test func theConfigDirectoryIsXDGsThenTheHomeDirectorysAndIsTheDefaultOutsideApplePlatforms() {
        let config = FileOverrideStore.configDirectory
        #expect(config(["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/qa"]).path == "/xdg/flagstaff")
        #expect(config(["XDG_CONFIG_HOME": "relative", "HOME": "/home/qa"]).path == "/home/qa/.config/flagstaff")
        #expect(config(["HOME": "/home/qa"]).path == "/home/qa/.config/flagstaff")
        #expect(config(["HOME": ""]).path == URL(fileURLWithPath: NSHomeDirectory()).path + "/.config/flagstaff")
        #if canImport(Darwin)
        // Apple platforms keep app data in Application Support (inside the app's container on iOS).
        #expect(FileOverrideStore.defaultDirectory().path.hasSuffix("/Application Support/flagstaff"))
        #else
        #expect(FileOverrideStore.defaultDirectory() == config(ProcessInfo.processInfo.environment))
        #endif
    }

    @Test func externalChangesAreNoticedWhenTheWatchIntervalHasPassed() async throws {
        let clock = ManualClock()
        let features = FeatureRegistry(
            AppFeatures(), store: try FileOverrideStore(url: file),
            options: RegistryOptions(storeWatchInterval: .milliseconds(500), clock: clock))
        let stream = features.changes
        try await clock.waitForSleepers()  // the watcher waits for its first check
        // Another process (simulated by a second store on the same file) writes.
        _ = try FileOverrideStore(url: file).write(["list.infiniteScroll": .set(.on)])
        clock.advance(by: .milliseconds(499))
        // The watcher's deadline is not reached: it is still asleep, so nothing has been read yet.
        #expect(clock.sleeperCount == 1)
        #expect(!features.list.infiniteScroll.enabled)
        clock.advance(by: .milliseconds(1))
        var iterator = stream.makeAsyncIterator()
        let change = await iterator.next()
        #expect(change == FeatureChange(keys: ["list.infiniteScroll"], origin: .external))
        #expect(features.list.infiniteScroll.enabled)
        // It goes on watching: the next interval brings the next change.
        try await clock.waitForSleepers()
        _ = try FileOverrideStore(url: file).write(["list.infiniteScroll": .remove])
        clock.advance(by: .milliseconds(500))
        #expect(await iterator.next() == FeatureChange(keys: ["list.infiniteScroll"], origin: .external))
    }

    @Test func theWatcherStopsWithItsRegistry() async throws {
        let clock = ManualClock()
        var features: FeatureRegistry<AppFeatures>? = FeatureRegistry(
            AppFeatures(), store: try FileOverrideStore(url: file),
            options: RegistryOptions(storeWatchInterval: .seconds(1), clock: clock))
        weak let released = features
        try await clock.waitForSleepers()
        #expect(features?.allFeatures.isEmpty == false)
        // Its manifest is announced beside the store in the background, which holds it while it writes.
        features?.waitForAnnouncement()
        features = nil
        #expect(released == nil)
        #expect(clock.sleeperCount == 0, "the registry's deinit cancels the watcher's wait")
    }

    @Test func noWatcherWithoutAnInterval() {
        let clock = ManualClock()
        let features = FeatureRegistry(
            AppFeatures(), store: InMemoryOverrideStore(),
            options: RegistryOptions(storeWatchInterval: nil, clock: clock))
        #expect(features.core.watcherIsRunning == false)
        let watched = FeatureRegistry(
            AppFeatures(), store: InMemoryOverrideStore(), options: RegistryOptions(clock: clock))
        #expect(watched.core.watcherIsRunning)
    }
}
