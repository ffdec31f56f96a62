import FlagstaffRemote
import Foundation

extension FirebaseRemoteConfigProvider {
    /// The Analytics user property that carries the first-open time, in milliseconds since 1970.
    static let firstOpenTimeProperty = "_fot"

    /// The strict-JSON request body (keys sorted, so it is stable for tests and caches).
    ///
    /// Fields as the SDK sends them: installation, app and device fields always; `package_name` and
    /// `country_code` when known; `first_open_time` (ISO 8601, whole seconds, UTC) when known, from the `_fot`
    /// user property first; `analytics_user_properties` and `custom_signals` when not empty.
    ///
    /// - Parameters:
    ///   - customSignals: The custom signals.
    ///   - identity: The installation, or `nil` to send none.
    ///   - userProperties: The Analytics user properties.
    /// - Returns: The UTF-8 JSON body.
    /// - Throws: ``RemoteConfigProviderError/invalidResponse(_:)`` if encoding fails (it cannot for strings).
    func requestBody(
        customSignals: [String: String], identity: FirebaseInstallations.Credentials?,
        userProperties: [String: String] = [:]
    ) throws(RemoteConfigProviderError) -> Data {
        var body: [String: Any] = [
            "app_id": options.appID,
            "language_code": options.languageCode,
            "platform_version": options.platformVersion,
            "time_zone": options.timeZone,
            "app_version": options.appVersion,
            "app_build": options.appBuild,
            "sdk_version": options.sdkVersion,
        ]
        if let identity {
            body["app_instance_id"] = identity.id
            body["app_instance_id_token"] = identity.token
        }
        if !options.countryCode.isEmpty { body["country_code"] = options.countryCode }
        if !options.bundleIdentifier.isEmpty { body["package_name"] = options.bundleIdentifier }
        var properties = userProperties
        var firstOpen = identity?.firstOpenTime ?? options.firstOpenTime
        if let milliseconds = properties.removeValue(forKey: Self.firstOpenTimeProperty).flatMap(Double.init),
            milliseconds.isFinite
        {
            firstOpen = Date(timeIntervalSince1970: (milliseconds / 1000).rounded(.down))
        }
        if let firstOpen { body["first_open_time"] = Self.iso8601(firstOpen) }
        if !properties.isEmpty { body["analytics_user_properties"] = properties }
        if !customSignals.isEmpty { body["custom_signals"] = customSignals }
        do {
            return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        } catch {
            throw .invalidResponse("cannot encode the request body: \((error as NSError).localizedDescription)")
        }
    }

    /// `yyyy-MM-dd'T'HH:mm:ss'Z'` in UTC, as `NSISO8601DateFormatter` writes by default.
    static func iso8601(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))Z"
    }
}
