import Foundation

/// What a ``FirebaseRemoteConfigProvider`` needs to talk to the Firebase Remote Config REST API.
///
/// The project ID, API key and app ID come from the Firebase console (or `GoogleService-Info.plist`:
/// `PROJECT_ID`, `API_KEY`, `GOOGLE_APP_ID`). The device fields are sent in every fetch so server-side
/// conditions (language, app version, platform, custom signals) can target this client.
public struct FirebaseRemoteConfigOptions: Sendable, Equatable {
    /// The production endpoint: `https://firebaseremoteconfig.googleapis.com`.
    public static let defaultBaseURL =
        URL(string: "https://firebaseremoteconfig.googleapis.com") ?? URL(fileURLWithPath: "/")

    /// The service root; requests go to `{baseURL}/v1/projects/{projectID}/namespaces/{namespace}:fetch?key={apiKey}`.
    public var baseURL: URL
    /// The Firebase project ID, e.g. `"moments-4f2a1"`.
    public var projectID: String
    /// The Web/iOS API key.
    public var apiKey: String
    /// The Google app ID, e.g. `"1:1234567890:ios:abcdef"`.
    public var appID: String
    /// The Remote Config namespace; `"firebase"` for app config.
    public var namespace: String
    /// The Firebase installation ID of this client (`app_instance_id`).
    public var appInstanceID: String
    /// The Firebase installation auth token (`app_instance_id_token`), also sent as
    /// `x-goog-firebase-installations-auth` when not empty.
    public var appInstanceIDToken: String
    /// The device language, e.g. `"en-GB"` or `"zh"` (`language_code`).
    public var languageCode: String
    /// The OS version (`platform_version`).
    public var platformVersion: String
    /// The IANA time zone, e.g. `"Europe/Paris"` (`time_zone`).
    public var timeZone: String
    /// The app's marketing version (`app_version`).
    public var appVersion: String
    /// The app's build number (`app_build`).
    public var appBuild: String
    /// The client SDK version string (`sdk_version`).
    public var sdkVersion: String
    /// The largest response body accepted, in bytes; larger ones fail as invalid (default 1 MiB).
    public var maximumResponseBytes: Int

    /// Creates options; device fields default to this process's locale, OS and time zone.
    ///
    /// - Parameters:
    ///   - projectID: The Firebase project ID.
    ///   - apiKey: The API key.
    ///   - appID: The Google app ID.
    ///   - baseURL: The service root (change it for tests or a proxy).
    ///   - namespace: The namespace, `"firebase"` by default.
    ///   - appInstanceID: The installation ID; a random one per options value if `nil`.
    ///   - appInstanceIDToken: The installation auth token.
    ///   - languageCode: The language; the current locale's identifier if `nil`.
    ///   - platformVersion: The OS version; this process's if `nil`.
    ///   - timeZone: The time zone; the current one if `nil`.
    ///   - appVersion: The app version.
    ///   - appBuild: The app build.
    ///   - sdkVersion: The SDK version string.
    ///   - maximumResponseBytes: The response size limit.
    public init(
        projectID: String,
        apiKey: String,
        appID: String,
        baseURL: URL = Self.defaultBaseURL,
        namespace: String = "firebase",
        appInstanceID: String? = nil,
        appInstanceIDToken: String = "",
        languageCode: String? = nil,
        platformVersion: String? = nil,
        timeZone: String? = nil,
        appVersion: String = "",
        appBuild: String = "",
        sdkVersion: String = "flagstaff-1",
        maximumResponseBytes: Int = 1 << 20
    ) {
        self.projectID = projectID
        self.apiKey = apiKey
        self.appID = appID
        self.baseURL = baseURL
        self.namespace = namespace
        self.appInstanceID = appInstanceID ?? UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        self.appInstanceIDToken = appInstanceIDToken
        self.languageCode = languageCode ?? Locale.current.identifier
        let os = ProcessInfo.processInfo.operatingSystemVersion
        self.platformVersion = platformVersion ?? "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)"
        self.timeZone = timeZone ?? TimeZone.current.identifier
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.sdkVersion = sdkVersion
        self.maximumResponseBytes = max(1, maximumResponseBytes)
    }

    /// The fetch endpoint: `{baseURL}/v1/projects/{projectID}/namespaces/{namespace}:fetch?key={apiKey}`.
    public var fetchURL: URL? {
        let root =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let segmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))
        let project = projectID.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? projectID
        let space = namespace.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? namespace
        let keyAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))
        let key = apiKey.addingPercentEncoding(withAllowedCharacters: keyAllowed) ?? apiKey
        return URL(string: "\(root)/v1/projects/\(project)/namespaces/\(space):fetch?key=\(key)")
    }
}
