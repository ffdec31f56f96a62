import Flagstaff
import Foundation

/// Reads and writes a ``RemoteConfig``'s state as JSON files in one directory, atomically.
///
/// Files: `fetched.json` and `active.json` (`{"version":1,"templateVersion":…,"entries":{key: value}}`) and
/// `metadata.json` (``RemoteConfigMetadata``). Dates are seconds since 1970. Each write goes to a temporary file
/// that is renamed over the old one, so a crash never leaves a half-written file.
struct RemoteConfigStorage: Sendable {
    /// One stored config (fetched or active).
    struct StoredConfig: Encodable, Equatable, Sendable {
        var version: Int = 1
        var templateVersion: String?
        var entries: [String: String]
    }

    /// Everything loaded at start-up, plus the problems met (unreadable files are skipped, not fatal).
    struct Snapshot: Sendable {
        var fetched: StoredConfig?
        var active: StoredConfig?
        var metadata = RemoteConfigMetadata()
        var problems: [RemoteConfigError] = []
    }

    let directory: URL

    var fetchedURL: URL { directory.appendingPathComponent("fetched.json") }
    var activeURL: URL { directory.appendingPathComponent("active.json") }
    var metadataURL: URL { directory.appendingPathComponent("metadata.json") }

    /// Loads whatever exists; a missing file is normal, a corrupt one is reported in `problems` and ignored.
    func load() -> Snapshot {
        var snapshot = Snapshot()
        snapshot.fetched = read(fetchedURL, problems: &snapshot.problems) { reader throws(ReadFailure) in
            try reader.readStoredConfig()
        }
        snapshot.active = read(activeURL, problems: &snapshot.problems) { reader throws(ReadFailure) in
            try reader.readStoredConfig()
        }
        if let metadata = read(
            metadataURL, problems: &snapshot.problems,
            { reader throws(ReadFailure) in
                try reader.readRemoteConfigMetadata()
            })
        {
            snapshot.metadata = metadata
        }
        return snapshot
    }

    /// Reads one file with the package's ``JSONReader``; a file that cannot be read is a problem, not fatal.
    private func read<T>(
        _ url: URL, problems: inout [RemoteConfigError], _ body: (inout JSONReader) throws(ReadFailure) -> T
    ) -> T? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            problems.append(.persistence(path: url.path, reason: "ignored unreadable file: \(Self.describe(error))"))
            return nil
        }
        do throws(ReadFailure) {
            return try JSONReader.withText(data, body)
        } catch {
            let path = error.offset == nil ? error.jsonPath : "$"
            let detail = path == "$" ? error.detail : "field \(path.dropFirst(2)): \(error.detail)"
            problems.append(.persistence(path: url.path, reason: "ignored unreadable file: \(detail)"))
            return nil
        }
    }

    /// Writes `value` to `url` atomically, creating the directory if needed.
    func write<T: Encodable>(_ value: T, to url: URL) throws(RemoteConfigError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(value).write(to: url, options: .atomic)
        } catch {
            throw .persistence(path: url.path, reason: "cannot write: \(Self.describe(error))")
        }
    }

    /// Removes `url` if it exists.
    func remove(_ url: URL) throws(RemoteConfigError) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do { try FileManager.default.removeItem(at: url) } catch {
            throw .persistence(path: url.path, reason: "cannot remove: \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}
