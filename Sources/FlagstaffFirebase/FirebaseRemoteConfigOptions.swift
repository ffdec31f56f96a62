import Foundation

/// What a ``FirebaseRemoteConfigProvider`` needs to talk to the Firebase Remote Config REST API.
///
/// The project ID, API key and app ID come from the Firebase console (or `GoogleService-Info.plist`:
/// `PROJECT_ID`, `API_KEY`, `GOOGLE_APP_ID`). The device fields are sent in every fetch so server-side
/// conditions (language, country, app version, platform, custom signals) can target this client; their
/// defaults follow the Apple SDK (the main bundle's version, build and identifier where there is one, the
/// SDK's language-code mapping of the preferred languages, the current region and time zone).
public struct FirebaseRemoteConfigOptions: Sendable, Equatable {
    /// The production endpoint: `https://firebaseremoteconfig.googleapis.com`.
    public static let defaultBaseURL =
        URL(string: "https://firebaseremoteconfig.googleapis.com") ?? URL(fileURLWithPath: "/")
    /// The production Installations endpoint: `https://firebaseinstallations.googleapis.com`.
    public static let defaultInstallationsBaseURL =
        URL(string: "https://firebaseinstallations.googleapis.com") ?? URL(fileURLWithPath: "/")
    /// The production realtime endpoint: `https://firebaseremoteconfigrealtime.googleapis.com`.
    public static let defaultRealtimeBaseURL =
        URL(string: "https://firebaseremoteconfigrealtime.googleapis.com") ?? URL(fileURLWithPath: "/")

    /// The service root; requests go to `{baseURL}/v1/projects/{projectID}/namespaces/{namespace}:fetch?key={apiKey}`.
    public var baseURL: URL
    /// The Installations service root. `nil` means the production endpoint when ``baseURL`` is the production
    /// one, and ``baseURL`` itself otherwise (a stand-in or proxy that serves both).
    public var installationsBaseURL: URL?
    /// The realtime service root, resolved like ``installationsBaseURL``.
    public var realtimeBaseURL: URL?
    /// The Firebase project ID, e.g. `"moments-4f2a1"`.
    public var projectID: String
    /// The project number (`GCM_SENDER_ID`), used by the realtime stream. `nil` takes it from ``appID``
    /// (`1:<number>:ios:<hash>`).
    public var projectNumber: String?
    /// The Web/iOS API key.
    public var apiKey: String
    /// The Google app ID, e.g. `"1:1234567890:ios:abcdef"`.
    public var appID: String
    /// The Remote Config namespace; `"firebase"` for app config.
    public var namespace: String
    /// How this client identifies itself (see ``FirebaseInstallationMode``).
    public var installation: FirebaseInstallationMode
    /// Where the installation and the first-open time are persisted (`firebase-installation.json`). `nil` uses
    /// the storage directory of the ``FlagstaffRemote/RemoteConfig`` the provider serves; without either, they
    /// live in memory only (a new installation per process).
    public var storageDirectory: URL?
    /// The app's bundle identifier, sent as `X-Ios-Bundle-Identifier` and `package_name`; empty sends neither.
    public var bundleIdentifier: String
    /// The language code (`language_code`), e.g. `"en_GB"` or `"zh"`.
    public var languageCode: String
    /// The country, lower-case (`country_code`), e.g. `"gb"`; empty sends none.
    public var countryCode: String
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
    /// When the app was first opened (`first_open_time`). `nil` records the first launch in the storage
    /// directory and sends that; without a directory none is sent.
    public var firstOpenTime: Date?
    /// Whether adding an update listener opens the realtime invalidation stream, as in the Apple SDK.
    public var realtimeEnabled: Bool
    /// The largest response body accepted, in bytes; larger ones fail as invalid (default 1 MiB).
    public var maximumResponseBytes: Int

    /// Creates options; device fields default to this process's bundle, locale, OS and time zone.
    ///
    /// - Parameters:
    ///   - projectID: The Firebase project ID.
    ///   - apiKey: The API key.
    ///   - appID: The Google app ID.
    ///   - baseURL: The service root (change it for tests or a proxy).
    ///   - installationsBaseURL: The Installations root; `nil` as described at ``installationsBaseURL``.
    ///   - realtimeBaseURL: The realtime root; `nil` as described at ``realtimeBaseURL``.
    ///   - projectNumber: The project number; `nil` takes it from `appID`.
    ///   - namespace: The namespace, `"firebase"` by default.
    ///   - installation: How the client identifies itself; registration through the Installations API by default.
    ///   - storageDirectory: Where the installation is persisted; `nil` for the config's directory.
    ///   - bundleIdentifier: The bundle identifier; the main bundle's if `nil` (none on Linux command lines).
    ///   - languageCode: The language; the SDK's mapping of the preferred languages if `nil`.
    ///   - countryCode: The country; the current locale's region, lower-cased, if `nil`.
    ///   - platformVersion: The OS version; this process's if `nil`.
    ///   - timeZone: The time zone; the current one if `nil`.
    ///   - appVersion: The app version; the main bundle's `CFBundleShortVersionString` if `nil`.
    ///   - appBuild: The app build; the main bundle's `CFBundleVersion` if `nil`.
    ///   - sdkVersion: The SDK version string.
    ///   - firstOpenTime: The first-open time; recorded at first launch if `nil`.
    ///   - realtimeEnabled: Whether listeners open the realtime stream.
    ///   - maximumResponseBytes: The response size limit.
    public init(
        projectID: String,
        apiKey: String,
        appID: String,
        baseURL: URL = Self.defaultBaseURL,
        installationsBaseURL: URL? = nil,
        realtimeBaseURL: URL? = nil,
        projectNumber: String? = nil,
        namespace: String = "firebase",
        installation: FirebaseInstallationMode = .automatic,
        storageDirectory: URL? = nil,
        bundleIdentifier: String? = nil,
        languageCode: String? = nil,
        countryCode: String? = nil,
        platformVersion: String? = nil,
        timeZone: String? = nil,
        appVersion: String? = nil,
        appBuild: String? = nil,
        sdkVersion: String = "flagstaff-1",
        firstOpenTime: Date? = nil,
        realtimeEnabled: Bool = true,
        maximumResponseBytes: Int = 1 << 20
    ) {
        self.projectID = projectID
        self.apiKey = apiKey
        self.appID = appID
        self.baseURL = baseURL
        self.installationsBaseURL = installationsBaseURL
        self.realtimeBaseURL = realtimeBaseURL
        self.projectNumber = projectNumber
        self.namespace = namespace
        self.installation = installation
        self.storageDirectory = storageDirectory
        let (info, mainIdentifier) = Self.mainBundle
        self.bundleIdentifier = bundleIdentifier ?? mainIdentifier ?? ""
        self.languageCode = languageCode ?? FirebaseLanguageCode.code(forPreferredLanguages: Locale.preferredLanguages)
        self.countryCode = countryCode ?? (Locale.current.region?.identifier.lowercased() ?? "")
        let os = ProcessInfo.processInfo.operatingSystemVersion
        self.platformVersion = platformVersion ?? "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)"
        self.timeZone = timeZone ?? TimeZone.current.identifier
        self.appVersion = appVersion ?? (info["CFBundleShortVersionString"] as? String ?? "")
        self.appBuild = appBuild ?? (info["CFBundleVersion"] as? String ?? "")
        self.sdkVersion = sdkVersion
        self.firstOpenTime = firstOpenTime
        self.realtimeEnabled = realtimeEnabled
        self.maximumResponseBytes = max(1, maximumResponseBytes)
    }

    /// The fetch endpoint: `{baseURL}/v1/projects/{projectID}/namespaces/{namespace}:fetch?key={apiKey}`.
    public var fetchURL: URL? {
        Self.url(
            root: baseURL, path: "/v1/projects/\(Self.segment(projectID))/namespaces/\(Self.segment(namespace)):fetch",
            apiKey: apiKey)
    }

    /// The realtime endpoint:
    /// `{realtime}/v1/projects/{projectNumber}/namespaces/{namespace}:streamFetchInvalidations?key={apiKey}`.
    public var realtimeURL: URL? {
        guard let number = resolvedProjectNumber else { return nil }
        let root = realtimeBaseURL ?? (baseURL == Self.defaultBaseURL ? Self.defaultRealtimeBaseURL : baseURL)
        return Self.url(
            root: root,
            path: "/v1/projects/\(Self.segment(number))/namespaces/\(Self.segment(namespace)):streamFetchInvalidations",
            apiKey: apiKey)
    }

    /// The Installations root in use (see ``installationsBaseURL``).
    public var resolvedInstallationsBaseURL: URL {
        installationsBaseURL ?? (baseURL == Self.defaultBaseURL ? Self.defaultInstallationsBaseURL : baseURL)
    }

    /// ``projectNumber``, or the second field of ``appID`` (`1:<number>:ios:<hash>`); `nil` if neither has one.
    public var resolvedProjectNumber: String? {
        if let projectNumber, !projectNumber.isEmpty { return projectNumber }
        let fields = appID.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count >= 2, !fields[1].isEmpty, fields[1].allSatisfy(\.isNumber) else { return nil }
        return String(fields[1])
    }

    /// A URL from a root, a path and an optional `key` query item.
    static func url(root: URL, path: String, apiKey: String?) -> URL? {
        let text = root.absoluteString.hasSuffix("/") ? String(root.absoluteString.dropLast()) : root.absoluteString
        guard let apiKey else { return URL(string: text + path) }
        let keyAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))
        let key = apiKey.addingPercentEncoding(withAllowedCharacters: keyAllowed) ?? apiKey
        return URL(string: "\(text)\(path)?key=\(key)")
    }

    /// One percent-encoded path segment.
    static func segment(_ text: String) -> String {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The app's `Info.plist` values and bundle identifier, on Apple platforms, where an app has a bundle.
    /// Elsewhere a program has none (`Bundle.main` reads as empty), and Foundation's `Bundle.main` traps when the
    /// program's folder is not searchable by the user running it (a binary under a 0700 folder, run as another
    /// user): it is not asked.
    static var mainBundle: (info: [String: Any], identifier: String?) {
        #if canImport(Darwin)
        (Bundle.main.infoDictionary ?? [:], Bundle.main.bundleIdentifier)
        #else
        ([:], nil)
        #endif
    }
}
