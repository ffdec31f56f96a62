import Foundation

/// The remote values an app reported in its announced manifest (``RegistryManifest/AppReport``), as the source of
/// a tool's settings: a tool shows the app's own remote values, with when the app reported them, and never fetches
/// or evaluates them itself. Keyed by remote key; a setting the app had no remote value for is absent.
final class AppReportSource: SettingRemoteSource {
    let settingValueGeneration = SettingSourceGeneration()
    private let values: AnnotatedMutex<[String: RemoteSettingValue]>

    /// The reported remote values of `manifest`'s settings (none without an `app` report).
    init(_ manifest: RegistryManifest) {
        values = AnnotatedMutex(Self.values(of: manifest))
    }

    /// Takes the values a later announcement of the app reports.
    /// - Returns: the remote keys whose value changed.
    func take(_ manifest: RegistryManifest) -> Set<String> {
        let new = Self.values(of: manifest)
        let changed = values.withLock { values -> Set<String> in
            let keys = Set(values.keys).union(new.keys).filter { values[$0] != new[$0] }
            values = new
            return keys
        }
        if !changed.isEmpty { settingValueGeneration.advance() }
        return changed
    }

    private static func values(of manifest: RegistryManifest) -> [String: RemoteSettingValue] {
        var values: [String: RemoteSettingValue] = [:]
        guard let app = manifest.app else { return values }
        let provider = "the app, \(app.summary)"
        for setting in manifest.memberLists.lazy.flatMap(\.settings) {
            guard let remoteKey = setting.remoteKey, let reported = app.values[setting.key], reported.source == .remote
            else { continue }
            let text: String =
                if case .string(let string) = reported.value { string } else {
                    JSONSettingValue.storedValue(of: reported.value).json
                }
            values[remoteKey] = RemoteSettingValue(text: text, provider: provider, fetchedAt: app.reportedAt)
        }
        return values
    }

    /// The app's value, or `nil` when it had none.
    func settingRemoteValue(forKey key: String) -> RemoteSettingValue? { values.withLock { $0[key] } }
}
