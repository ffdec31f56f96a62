import Flagstaff
import Foundation

/// The values a restart-requiring flag or setting is compared with by `flagstaff pending-restart`.
///
/// A CLI invocation is not the app, so "the value at launch" needs a definition. It is the **launch
/// snapshot** when there is one: a sidecar file `<store>.launch.json` holding the effective values of the
/// restart-requiring members, written by `flagstaff pending-restart --record` (run it when the app starts, e.g.
/// from its launch script or `--restart-command`) and by `flagstaff console` after a successful "restart
/// now". Without a snapshot, or for a member the snapshot does not list (or lists with a value that is not
/// valid for it), it is the member's value **without any override** (the app launched before anything was
/// forced).
///
/// File shape: `{"version":1,"recordedAt":"2026-11-21T22:00:00Z","values":{"useTabBarNav":false,"theme":"dark"}}`:
/// flags as `true`/`false`, settings as their JSON values.
struct LaunchBaseline {
    /// Where a value came from.
    enum Origin: String, Encodable {
        /// The launch snapshot.
        case snapshot
        /// The value without an override.
        case withoutOverride
    }

    /// The snapshot's values, by key (empty without a snapshot), as JSON.
    let values: [String: OverrideValue]
    /// When the snapshot was recorded, or `nil` without one.
    let recordedAt: Date?
    /// The sidecar file.
    let url: URL

    /// The sidecar file for a store.
    static func url(forStore store: URL) -> URL {
        StoreLayout.unresolved(store).launchSnapshot
    }

    /// What is in a snapshot file.
    private enum Contents {
        case absent
        case valid(recordedAt: Date?, values: [String: OverrideValue])
        case unreadable(String)
        case unsupportedVersion(String)
        /// Not a snapshot at all, with the reason in plain words.
        case corrupt(String)
    }

    private static let shape = #"{"version":1,"recordedAt":…,"values":{"key":true}}"#

    private static func read(_ url: URL) -> Contents {
        let read: Data?
        do throws(BoundedFileReader.Failure) {
            // Never through a link (docs/files.md); a FIFO or a device is refused without being opened.
            read = try BoundedFileReader.read(url.path, limit: 64 << 20, followingLinks: false)
        } catch {
            switch error {
            case .unreadable(let reason), .notAFile(let reason): return .unreadable(reason)
            case .tooLarge: return .corrupt("it is larger than 64 MiB")
            }
        }
        guard let data = read else { return .absent }
        if data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) { return .corrupt("it is empty") }
        guard let root = try? JSONValue.readFoundation(data) else {
            return .corrupt("it is not valid JSON")
        }
        let notASnapshot = Contents.corrupt("it is JSON but not a launch snapshot, which reads \(shape)")
        guard let object = root as? [String: Any], let version = object["version"] else { return notASnapshot }
        switch ReportValue(jsonObject: version) {
        case .integer(1): break
        case .integer, .unsigned, .double: return .unsupportedVersion(OverrideValue(jsonObject: version).json)
        default: return notASnapshot
        }
        var recordedAt: Date?
        if let recorded = object["recordedAt"], !(recorded is NSNull) {
            guard let text = recorded as? String, let date = try? Date(text, strategy: .iso8601) else {
                return notASnapshot
            }
            recordedAt = date
        }
        guard let entries = object["values"] as? [String: Any] else { return notASnapshot }
        return .valid(recordedAt: recordedAt, values: entries.mapValues(OverrideValue.init(jsonObject:)))
    }

    /// Replaces a corrupt snapshot (empty, not JSON, not a snapshot) with one holding the restart-requiring
    /// members' values without overrides (what "no snapshot" means), and says so on standard error. Every
    /// command that opens the store calls it, so a corrupt snapshot is handled the same way whatever the
    /// command; an unreadable file or an unsupported version is left to ``load(forStore:)`` to report.
    /// - Throws: `CLIFailure.runtime` naming the file if the replacement cannot be written.
    static func replaceIfCorrupt(forStore store: URL, registry: AnyFeatureRegistry) throws {
        let url = url(forStore: store)
        guard case .corrupt(let reason) = read(url) else { return }
        var values: [String: ReportValue] = [:]
        for feature in registry.allFeatures where feature.requiresRestart {
            values[feature.key] = ReportValue(feature.valueWithoutOverride, of: feature)
        }
        try write(SnapshotFile(version: 1, recordedAt: nil, values: values), to: url, ownerOf: store)
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
        case .valid(let recordedAt, let values):
            return LaunchBaseline(values: values, recordedAt: recordedAt, url: url)
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

    /// The value a member is compared with (as JSON, `"on"`/`"off"` for booleans), and where it came from.
    func launchValue(of feature: AnyFeature) -> (value: OverrideValue, origin: Origin) {
        if let recorded = values[feature.key], let value = Self.normalized(recorded, for: feature) {
            return (value, .snapshot)
        }
        return (feature.valueWithoutOverride, .withoutOverride)
    }

    /// A snapshot entry as the member's own JSON (`true` → `"on"` for booleans), or `nil` when it is not a
    /// valid value of the member (the key was something else when the snapshot was written).
    private static func normalized(_ value: OverrideValue, for feature: AnyFeature) -> OverrideValue? {
        var value = value
        if feature.settingType == .boolean, let state = ValueText.booleanState(value) { value = state ? .on : .off }
        guard (try? feature.validate(value)) != nil else { return nil }
        return value
    }

    /// Makes this baseline the registry's launch values, so that the console's "needs restart" (its counts,
    /// rows, detail pane and restart prompt) and the note on leaving it mean what `pending-restart` reports.
    func install(in registry: AnyFeatureRegistry) {
        var launch: [String: OverrideValue] = [:]
        for feature in registry.allFeatures where feature.requiresRestart {
            launch[feature.key] = launchValue(of: feature).value
        }
        registry.recordLaunchValues(launch)
    }

    /// Whether a member requires a restart and its effective value differs from its launch value.
    func isPending(_ feature: AnyFeature) -> Bool {
        feature.requiresRestart && feature.currentValue != launchValue(of: feature).value
    }

    /// Records the current values of the registry's restart-requiring flags and settings as the launch snapshot.
    /// - Returns: the keys recorded.
    /// - Throws: `CLIFailure.runtime` naming the file if it cannot be written.
    @discardableResult
    static func record(_ registry: AnyFeatureRegistry, forStore store: URL, at date: Date = Date()) throws -> [String] {
        let url = url(forStore: store)
        var values: [String: ReportValue] = [:]
        for feature in registry.allFeatures where feature.requiresRestart {
            values[feature.key] = ReportValue(feature.currentValue, of: feature)
        }
        try write(SnapshotFile(version: 1, recordedAt: date, values: values), to: url, ownerOf: store)
        return values.keys.sorted()
    }

    private static func write(_ file: SnapshotFile, to url: URL, ownerOf store: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CLIFailure.runtime(
                "cannot write the launch snapshot \(url.path): \((error as NSError).localizedDescription)")
        }
        let data: Data
        do {
            data = try encoder.encode(file)
        } catch {
            throw CLIFailure.runtime("cannot encode the launch snapshot \(url.path): \(error)")
        }
        // Replaced atomically, never through a link; root gives it the store's owner, as the store's other files.
        do throws(OwnFile.Failure) {
            try OwnFile.writeAtomically(data, to: url.path, ownerOf: store.path)
        } catch {
            throw CLIFailure.runtime("cannot write the launch snapshot \(url.path): \(error.reason)")
        }
    }

    private struct SnapshotFile: Encodable {
        var version: Int
        var recordedAt: Date?
        var values: [String: ReportValue]
    }
}
