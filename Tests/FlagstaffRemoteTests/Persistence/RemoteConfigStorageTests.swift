import Foundation
import Testing

@testable import FlagstaffRemote

/// The storage's files are read by the package's one reader, straight into their models.
@Suite struct RemoteConfigStorageTests {
    private func storage() throws -> RemoteConfigStorage {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return RemoteConfigStorage(directory: directory)
    }

    @Test func whatIsWrittenReadsBack() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(at: storage.directory) }
        let config = RemoteConfigStorage.StoredConfig(templateVersion: "7", entries: ["a": "1", "b": "x"])
        var metadata = RemoteConfigMetadata()
        metadata.eTag = "e"
        metadata.lastFetchTime = Date(timeIntervalSince1970: 1_700_000_000.5)
        metadata.lastFetchStatus = .success
        metadata.backoffInterval = 30
        metadata.customSignals = ["tier": "gold"]
        metadata.deviceContext = ["os": "linux"]
        try storage.write(config, to: storage.fetchedURL)
        try storage.write(metadata, to: storage.metadataURL)
        let snapshot = storage.load()
        #expect(snapshot.problems.isEmpty)
        #expect(snapshot.fetched == config)
        #expect(snapshot.active == nil)
        #expect(snapshot.metadata == metadata)
    }

    /// A repeated name, which another parser would settle by keeping one copy, makes the file unreadable: it is
    /// reported (naming the member) and ignored.
    @Test func aRepeatedNameIsReportedAndTheFileIgnored() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(at: storage.directory) }
        try Data(#"{"version":1,"entries":{"a":"1","a":"2"}}"#.utf8).write(to: storage.fetchedURL)
        try Data("\u{FEFF}{\"version\":1,\"entries\":{\"b\":\"2\"}}".utf8).write(to: storage.activeURL)
        try Data(#"{"lastFetchStatus":"sometimes"}"#.utf8).write(to: storage.metadataURL)
        let snapshot = storage.load()
        #expect(snapshot.fetched == nil)
        #expect(snapshot.active?.entries == ["b": "2"], "a byte-order mark is skipped")
        #expect(snapshot.metadata == RemoteConfigMetadata())
        let reasons = snapshot.problems.map { "\($0)" }
        #expect(reasons.count == 2, "\(reasons)")
        #expect(reasons.first?.contains(#"duplicate member "a""#) == true, "\(reasons)")
        #expect(reasons.last?.contains("lastFetchStatus") == true, "\(reasons)")
    }
}
