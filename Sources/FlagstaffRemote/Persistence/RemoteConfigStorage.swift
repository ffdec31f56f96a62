import Foundation

/// Reads and writes a ``RemoteConfig``'s state as JSON files in one directory, atomically.
///
/// Files: `fetched.json` and `active.json` (`{"version":1,"templateVersion":…,"entries":{key: value}}`) and
/// `metadata.json` (``RemoteConfigMetadata``). Dates are seconds since 1970. Each write goes to a temporary file
/// that is renamed over the old one, so a crash never leaves a half-written file.
struct RemoteConfigStorage: Sendable {
    /// One stored config (fetched or active).
    struct StoredConfig: Codable, Equatable, Sendable {
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
        snapshot.fetched = read(StoredConfig.self, from: fetchedURL, problems: &snapshot.problems)
        snapshot.active = read(StoredConfig.self, from: activeURL, problems: &snapshot.problems)
        if let metadata = read(RemoteConfigMetadata.self, from: metadataURL, problems: &snapshot.problems) {
            snapshot.metadata = metadata
        }
        return snapshot
    }

    private func read<T: Decodable>(_ type: T.Type, from url: URL, problems: inout [RemoteConfigError]) -> T? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let data = try Data(contentsOf: url)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            return try decoder.decode(T.self, from: data)
        } catch {
            problems.append(.persistence(path: url.path, reason: "ignored unreadable file: \(Self.describe(error))"))
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
        if let decodingError = error as? DecodingError {
            switch decodingError {
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
                .keyNotFound(_, let context):
                let path = context.codingPath.map(\.stringValue).joined(separator: ".")
                let detail = (context.underlyingError as? NSError)?.localizedDescription ?? context.debugDescription
                return path.isEmpty ? detail : "field \(path): \(detail)"
            @unknown default:
                return String(describing: decodingError)
            }
        }
        return (error as NSError).localizedDescription
    }
}
