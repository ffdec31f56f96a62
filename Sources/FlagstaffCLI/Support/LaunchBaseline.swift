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

    /// Reads the snapshot next to a store (none if the file does not exist).
    /// - Throws: `CLIFailure.runtime` naming the file if it exists but is unreadable or invalid.
    static func load(forStore store: URL) throws -> LaunchBaseline {
        let url = url(forStore: store)
        guard FileManager.default.fileExists(atPath: url.path) else {
            return LaunchBaseline(values: [:], recordedAt: nil, url: url)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CLIFailure.runtime(
                "cannot read the launch snapshot \(url.path): \((error as NSError).localizedDescription)")
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let file = try decoder.decode(SnapshotFile.self, from: data)
            guard file.version == 1 else {
                throw CLIFailure.runtime(
                    "the launch snapshot \(url.path) has unsupported \"version\" \(file.version) (expected 1); delete it or run `flagstaff pending-restart --record`"
                )
            }
            return LaunchBaseline(values: file.values, recordedAt: file.recordedAt, url: url)
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure.runtime(
                "the launch snapshot \(url.path) is invalid (expected {\"version\":1,\"recordedAt\":…,\"values\":{\"key\":true}}): \(error); delete it or run `flagstaff pending-restart --record`"
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = try encoder.encode(SnapshotFile(version: 1, recordedAt: date, values: values))
            try data.write(to: url, options: .atomic)
        } catch {
            throw CLIFailure.runtime(
                "cannot write the launch snapshot \(url.path): \((error as NSError).localizedDescription)")
        }
        return values
    }

    private struct SnapshotFile: Codable {
        var version: Int
        var recordedAt: Date?
        var values: [String: Bool]
    }
}
