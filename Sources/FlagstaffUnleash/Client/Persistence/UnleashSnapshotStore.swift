import Foundation

/// Keeps the last-known-good answer of an Unleash server in one file of a directory the app gives.
///
/// Writes are atomic (a temporary file in the same directory renamed over the old one), so a crash or a
/// full disk leaves either the old snapshot or the new one, never half of one. The directory is created
/// when first written to.
struct UnleashSnapshotStore: Sendable {
    /// The snapshot file.
    let fileURL: URL

    init(directory: URL, fileName: String) {
        fileURL = directory.appendingPathComponent(fileName, isDirectory: false)
    }

    /// The store of one client: `unleash-<kind>-<app>-<hash>.json`, where `<app>` is the app name with every
    /// character outside `A-Z a-z 0-9 . _ -` replaced by `_` (at most 64 characters) and `<hash>` is 16 hex digits
    /// of the FNV-1a hash of the server URL, so that clients of other apps or servers sharing the directory never
    /// overwrite each other's snapshot, and the same client finds its own again at the next launch.
    init(directory: URL, kind: String, appName: String, url: URL) {
        self.init(directory: directory, fileName: Self.fileName(kind: kind, appName: appName, url: url))
    }

    /// The file name for a client (see ``init(directory:kind:appName:url:)``).
    static func fileName(kind: String, appName: String, url: URL) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-".unicodeScalars)
        let safe = String(
            String.UnicodeScalarView(appName.unicodeScalars.prefix(64).map { allowed.contains($0) ? $0 : "_" }))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.absoluteString.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "unleash-\(kind)-\(safe)-\(String(repeating: "0", count: 16 - hex.count) + hex).json"
    }

    /// The snapshot, or `nil` when there is none yet.
    /// - Throws: ``UnleashClientError/persistence(_:)`` when the file exists but cannot be read.
    func load() throws(UnleashClientError) -> Data? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        do {
            return try Data(contentsOf: fileURL)
        } catch {
            throw .persistence("cannot read \(fileURL.path): \((error as NSError).localizedDescription)")
        }
    }

    /// Replaces the snapshot atomically.
    /// - Throws: ``UnleashClientError/persistence(_:)`` naming the file when the directory or file cannot be written.
    func save(_ data: Data) throws(UnleashClientError) {
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: fileURL, options: .atomic)
        } catch {
            throw .persistence("cannot write \(fileURL.path): \((error as NSError).localizedDescription)")
        }
    }
}
