import Flagstaff

/// The demo's colour scheme: a `String`-backed enum, so the console and `flagstaff set` offer its cases.
enum Theme: String, CaseIterable, Codable, Sendable, SettingValue {
    /// Always light.
    case light
    /// Always dark.
    case dark
    /// Follow the system's appearance.
    case system
}

/// The demo's structured configuration, read from the Firebase parameter `app_feature_config` as JSON (the
/// Codable example of Firebase's Remote Config guide) and edited as JSON.
struct AppFeatureConfig: Codable, Equatable, Sendable, SettingValue {
    /// Whether the new feature is on.
    var isNewFeatureEnabled: Bool
    /// The largest upload accepted, in bytes.
    var maxUploadSize: Int
    /// Named colours, e.g. `"primary": "#f05138"`.
    var themeColors: [String: String]

    /// `{"isNewFeatureEnabled":false,"maxUploadSize":10485760,"themeColors":{"primary":"#f05138"}}`.
    static let standard = AppFeatureConfig(
        isNewFeatureEnabled: false, maxUploadSize: 10_485_760, themeColors: ["primary": "#f05138"])
}
