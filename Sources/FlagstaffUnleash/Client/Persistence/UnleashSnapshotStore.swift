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
