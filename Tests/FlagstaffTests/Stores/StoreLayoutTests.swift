import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

/// The files beside a store, named in one place (``StoreLayout``, docs/files.md): beside the file at the end of the
/// store path's links, or beside the path as given.
@Suite struct StoreLayoutTests {
    @Test func aLinkedStoreKeepsItsOwnFilesBesideTheFileWrittenAndTheUsersBesideThePathGiven() throws {
        let folder = TestDirectory.make("store-layout")
        let real = folder.appendingPathComponent("real")
        let shared = folder.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let target = real.appendingPathComponent("team.json").path
        let link = shared.appendingPathComponent("overrides.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../real/team.json")
        try Data(#"{"version":1,"overrides":{}}"#.utf8).write(to: URL(fileURLWithPath: target))

        let layout = try StoreLayout.resolving(link)
        #expect(layout.storePath == link)
        #expect(layout.target == shared.path + "/../real/team.json")
        let resolved = URL(fileURLWithPath: layout.target).standardizedFileURL.path
        #expect(resolved == URL(fileURLWithPath: target).standardizedFileURL.path)
        #expect(layout.lock == layout.target + ".lock")
        #expect(layout.journal.path == layout.target + ".history.jsonl")
        #expect(layout.rotatedJournal.path == layout.target + ".history.jsonl.1")
        #expect(layout.bisectState.path == layout.target + ".bisect.json")
        #expect(layout.announcedManifest.path == layout.target + ".manifest.json")
        #expect(layout.launchSnapshot.path == link + ".launch.json")
        #expect(layout.remoteFolder.path == link + ".remote")
        #expect(layout.profilesFolder.path == shared.path + "/overrides.profiles")

        // A write through the link uses the layout: the lock and the journal appear beside the file written.
        let store = try FileOverrideStore(url: URL(fileURLWithPath: link))
        _ = try store.write(["blueText": .set(.on)])
        #expect(FileManager.default.fileExists(atPath: target + ".lock"))
        #expect(FileManager.default.fileExists(atPath: target + ".history.jsonl"))
        #expect(!FileManager.default.fileExists(atPath: link + ".lock"))
        #expect(try store.journal()?.url.path == layout.journal.path)
    }

    @Test func aLinkToNothingNamesTheStoreAndCreatesNothing() throws {
        let folder = TestDirectory.make("store-layout")
        let link = folder.appendingPathComponent("overrides.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "missing/team.json")
        let error = #expect(throws: OverrideStoreError.self) { try StoreLayout.resolving(link) }
        #expect(error.map { "\($0)" }?.contains(link) == true)
        #expect(error.map { "\($0)" }?.contains("which does not exist; nothing was created") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("missing").path))
    }

    @Test func aPathThatIsNoLinkIsItsOwnTarget() throws {
        let path = TestDirectory.make("store-layout").appendingPathComponent("overrides.json").path
        #expect(try StoreLayout.resolving(path) == StoreLayout(storePath: path, target: path))
    }
}
