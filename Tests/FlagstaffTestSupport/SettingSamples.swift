import Flagstaff

/// The sample enum setting value, for tests of every module.
public enum Theme: String, CaseIterable, Codable, Sendable, SettingValue { case light, dark, system }

/// The Firebase guide's `app_feature_config`, as a Codable setting value for tests of every module.
public struct AppFeatureConfig: Codable, Equatable, Sendable, SettingValue {
    public var isNewFeatureEnabled: Bool
    public var maxUploadSize: Int
    public var themeColors: [String: String]

    public init(isNewFeatureEnabled: Bool, maxUploadSize: Int, themeColors: [String: String]) {
        self.isNewFeatureEnabled = isNewFeatureEnabled
        self.maxUploadSize = maxUploadSize
        self.themeColors = themeColors
    }

    /// The demo registry's default.
    public static let standard = AppFeatureConfig(
        isNewFeatureEnabled: false, maxUploadSize: 10_485_760, themeColors: ["primary": "#f05138"])
}
