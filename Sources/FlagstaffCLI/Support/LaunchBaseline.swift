import Flagstaff
import Foundation

/// The values a restart-requiring flag is compared with by `flagstaff pending-restart`.
///
/// A CLI invocation is not the app, so "the value at launch" needs a definition. It is the **launch
/// snapshot** when there is one: a sidecar file `<store>.launch.json` holding the effective values of the
/// restart-requiring flags, written by `flagstaff pending-restart --record` (run it when the app starts, e.g.
/// from its launch script or `--restart-command`) and by `flagstaff console` after a successful "restart
/// now". Without a snapshot, or for a flag the snapshot does not list, it is the flag's value **without any
/// override** (the app launched before anything was forced).
///
/// File shape: `{"version":1,"recordedAt":"2026-11-21T22:00:00Z","values":{"useTabBarNav":false}}`.
struct LaunchBaseline {
    /// Where a value came from.
    enum Origin: String, Encodable {
        /// The launch snapshot.
        case snapshot
        /// The value without an override.
        case withoutOverride
    }

    /// The snapshot's values, by key (empty without a snapshot).
    let values: [String: Bool]
    /// When the snapshot was recorded, or `nil` without one.
    let recordedAt: Date?
    /// The sidecar file.
    let url: URL

    /// The sidecar file for a store.
    static func url(forStore store: URL) -> URL {
        store.deletingLastPathComponent().appendingPathComponent(store.lastPathComponent + ".launch.json")
    }

    /// What is in a snapshot file.
    private enum Contents {
        case absent
        case valid(SnapshotFile)
        case unreadable(String)
        case unsupportedVersion(Int)
        /// Not a snapshot at all, with the reason in plain words.
        case corrupt(String)
    }

    private static func read(_ url: URL) -> Contents {
        guard FileManager.default.fileExists(atPath: url.path) else { return .absent }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return .unreadable((error as NSError).localizedDescription)
        }
        if data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) { return .corrupt("it is empty") }
        guard (try? JSONSerialization.jsonObject(with: data)) != nil else { return .corrupt("it is not valid JSON") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let file = try? decoder.decode(SnapshotFile.self, from: data) else {
            return .corrupt(
                "it is JSON but not a launch snapshot, which reads {\"version\":1,\"recordedAt\":…,\"values\":{\"key\":true}}"
            )
        }
        guard file.version == 1 else { return .unsupportedVersion(file.version) }
        return .valid(file)
    }

    /// Replaces a corrupt snapshot (empty, not JSON, not a snapshot) with one holding the restart-requiring
    /// flags' values without overrides (what "no snapshot" means), and says so on standard error. Every
    /// command that opens the store calls it, so a corrupt snapshot is handled the same way whatever the
    /// command; an unreadable file or an unsupported version is left to ``load(forStore:)`` to report.
    /// - Throws: `CLIFailure.runtime` naming the file if the replacement cannot be written.
    static func replaceIfCorrupt(forStore store: URL, registry: FeatureRegistry) throws {
        let url = url(forStore: store)
        guard case .corrupt(let reason) = read(url) else { return }
        var values: [String: Bool] = [:]
        for feature in registry.allFeatures where feature.requiresRestart {
            values[feature.key] = feature.resolveDefault().value
        }
        try write(SnapshotFile(version: 1, recordedAt: nil, values: values), to: url)
        StandardStreams.note(
            "the launch snapshot \(url.path) was corrupt (\(reason)); replaced it with the values without overrides (run `flagstaff pending-restart --record` when the app starts)"
        )
    }

    /// Reads the snapshot next to a store (none if the file does not exist).
    /// - Throws: `CLIFailure.runtime` naming the file if it exists but is unreadable, invalid or of an
    ///   unsupported version.
    static func load(forStore store: URL) throws -> LaunchBaseline {
        let url = url(forStore: store)
        switch read(url) {
        case .absent:
            return LaunchBaseline(values: [:], recordedAt: nil, url: url)
        case .valid(let file):
            return LaunchBaseline(values: file.values, recordedAt: file.recordedAt, url: url)
        case .unreadable(let reason):
            throw CLIFailure.runtime("cannot read the launch snapshot \(url.path): \(reason)")
        case .unsupportedVersion(let version):
            throw CLIFailure.runtime(
                "the launch snapshot \(url.path) has unsupported \"version\" \(version) (expected 1); delete it or run `flagstaff pending-restart --record`"
            )
        case .corrupt(let reason):
            throw CLIFailure.runtime(
                "the launch snapshot \(url.path) is corrupt (\(reason)); delete it or run `flagstaff pending-restart --record`"
            )
        }
    }

    /// The value a flag is compared with, and where it came from.
    func launchValue(of feature: AnyFeature) -> (value: Bool, origin: Origin) {
        if let value = values[feature.key] { return (value, .snapshot) }
        return (feature.resolveDefault().value, .withoutOverride)
    }

    /// Whether a flag requires a restart and its effective value differs from its launch value.
    func isPending(_ feature: AnyFeature) -> Bool {
        feature.requiresRestart && feature.enabled != launchValue(of: feature).value
    }

    /// Records the current values of the registry's restart-requiring flags as the launch snapshot.
    /// - Returns: the recorded values.
    /// - Throws: `CLIFailure.runtime` naming the file if it cannot be written.
    @discardableResult
    static func record(_ registry: FeatureRegistry, forStore store: URL, at date: Date = Date()) throws -> [String:
        Bool]
    {
        let url = url(forStore: store)
        var values: [String: Bool] = [:]
        for feature in registry.allFeatures where feature.requiresRestart { values[feature.key] = feature.enabled }
        try write(SnapshotFile(version: 1, recordedAt: date, values: values), to: url)
        return values
    }

    private static func write(_ file: SnapshotFile, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(file).write(to: url, options: .atomic)
        } catch {
            throw CLIFailure.runtime(
                "cannot write the launch snapshot \(url.path): \((error as NSError).localizedDescription)")
        }
    }

    private struct SnapshotFile: Codable {
        var version: Int
        var recordedAt: Date?
        var values: [String: Bool]
    }
}
