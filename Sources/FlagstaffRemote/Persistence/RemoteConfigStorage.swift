import Flagstaff
import Foundation

/// Reads and writes a ``RemoteConfig``'s state as JSON files in one directory, atomically.
///
/// Files: `fetched.json` and `active.json` (`{"version":1,"templateVersion":…,"entries":{key: value}}`) and
/// `metadata.json` (``RemoteConfigMetadata``). Dates are seconds since 1970. Each write goes to a temporary file
/// that is renamed over the old one, so a crash never leaves a half-written file.
package struct RemoteConfigStorage: Sendable {
    /// One stored config (fetched or active).
    package struct StoredConfig: Encodable, Equatable, Sendable {
        package var version: Int = 1
        package var templateVersion: String?
        package var entries: [String: String]

        package init(version: Int = 1, templateVersion: String? = nil, entries: [String: String]) {
            self.version = version
            self.templateVersion = templateVersion
            self.entries = entries
        }
    }

    /// Everything loaded at start-up, plus the problems met (unreadable files are skipped, not fatal).
    package struct Snapshot: Sendable {
        package var fetched: StoredConfig?
        package var active: StoredConfig?
        package var metadata = RemoteConfigMetadata()
        package var problems: [RemoteConfigError] = []
    }

    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    package var fetchedURL: URL { directory.appendingPathComponent("fetched.json") }
    package var activeURL: URL { directory.appendingPathComponent("active.json") }
    package var metadataURL: URL { directory.appendingPathComponent("metadata.json") }

    /// Loads whatever exists; a missing file is normal, a corrupt one is reported in `problems` and ignored.
    package func load() -> Snapshot {
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
    package func write<T: Encodable>(_ value: T, to url: URL) throws(RemoteConfigError) {
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
    package func remove(_ url: URL) throws(RemoteConfigError) {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do { try FileManager.default.removeItem(at: url) } catch {
            throw .persistence(path: url.path, reason: "cannot remove: \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}
