import Foundation

/// Errors reported by ``RemoteConfig`` and ``RemoteConfigValue``; each message says what to fix.
public enum RemoteConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The last fetch failed; the active config (last-known-good values) is unchanged.
    case fetchFailed(RemoteConfigProviderError)
    /// Fetching is throttled until `until` because the service answered 429/500/503/504; `cause` is the
    /// failure that started or extended the backoff, if it happened in this process.
    case throttled(until: Date, cause: RemoteConfigProviderError?)
    /// A defaults file could not be read or parsed.
    case invalidDefaultsFile(path: String, reason: String)
    /// A default value has an unsupported type.
    case invalidDefault(key: String, reason: String)
    /// A custom signal breaks Firebase's limits (key ≤ 250 characters, string value ≤ 500, at most 100).
    case invalidCustomSignal(key: String, reason: String)
    /// A value could not be decoded as the requested type.
    case decodingFailed(type: String, value: String, reason: String)
    /// Persisted state could not be read or written.
    case persistence(path: String, reason: String)
    /// The realtime update stream reported a problem (it could not connect, a message was unreadable, the
    /// service turned realtime off, or the announced template could not be fetched); polling still works.
    case realtime(String)

    /// The throttle end time, if this is ``throttled(until:cause:)``.
    public var throttledUntil: Date? {
        if case .throttled(let until, _) = self { return until }
        return nil
    }

    /// A one-line message naming the file, key or field and what was expected.
    public var description: String {
        switch self {
        case .fetchFailed(let cause):
            return "remote config fetch failed: \(cause)"
        case .throttled(let until, let cause):
            let reason = cause.map { " after \($0)" } ?? ""
            return "remote config fetch throttled until \(until.formatted(.iso8601))\(reason)"
        case .invalidDefaultsFile(let path, let reason):
            return "\(path): \(reason)"
        case .invalidDefault(let key, let reason):
            return "default for key \"\(key)\": \(reason)"
        case .invalidCustomSignal(let key, let reason):
            return "custom signal \"\(key)\": \(reason)"
        case .decodingFailed(let type, let value, let reason):
            return "cannot decode \"\(value)\" as \(type): \(reason)"
        case .persistence(let path, let reason):
            return "\(path): \(reason)"
        case .realtime(let reason):
            return "remote config realtime updates: \(reason)"
        }
    }
}
