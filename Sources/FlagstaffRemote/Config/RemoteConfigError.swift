import Foundation

/// Errors reported by ``RemoteConfig`` and ``RemoteConfigValue``; each message says what to fix.
///
/// A struct rather than an enum, so that a new kind of failure can be added without breaking code that handles
/// these errors: ask its properties (``cause``, ``throttledUntil``, ``key``, ``isRealtime``, …) instead of matching
/// cases. The static members (``fetchFailed(_:)``, …) make the errors, as the cases of an enum would.
public struct RemoteConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case fetchFailed(RemoteConfigProviderError)
        case throttled(until: Date, cause: RemoteConfigProviderError?)
        case invalidDefaultsFile(path: String)
        case invalidDefault(key: String)
        case invalidCustomSignal(key: String)
        case decodingFailed(type: String, value: String)
        case persistence(path: String)
        case realtime
    }

    private let code: Code
    /// What went wrong (for ``realtime(_:)``, the problem it reported; empty for ``fetchFailed(_:)`` and
    /// ``throttled(until:cause:)``, whose ``cause`` says it).
    public let reason: String

    private init(_ code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The last fetch failed; the active config (last-known-good values) is unchanged.
    public static func fetchFailed(_ cause: RemoteConfigProviderError) -> RemoteConfigError {
        RemoteConfigError(.fetchFailed(cause), reason: "")
    }

    /// Fetching is throttled until `until` because the service answered 429/500/503/504; `cause` is the
    /// failure that started or extended the backoff, if it happened in this process.
    public static func throttled(until: Date, cause: RemoteConfigProviderError?) -> RemoteConfigError {
        RemoteConfigError(.throttled(until: until, cause: cause), reason: "")
    }

    /// A defaults file could not be read or parsed.
    public static func invalidDefaultsFile(path: String, reason: String) -> RemoteConfigError {
        RemoteConfigError(.invalidDefaultsFile(path: path), reason: reason)
    }

    /// A default value has an unsupported type.
    public static func invalidDefault(key: String, reason: String) -> RemoteConfigError {
        RemoteConfigError(.invalidDefault(key: key), reason: reason)
    }

    /// A custom signal breaks Firebase's limits (key ≤ 250 characters, string value ≤ 500, at most 100).
    public static func invalidCustomSignal(key: String, reason: String) -> RemoteConfigError {
        RemoteConfigError(.invalidCustomSignal(key: key), reason: reason)
    }

    /// A value could not be decoded as the requested type.
    public static func decodingFailed(type: String, value: String, reason: String) -> RemoteConfigError {
        RemoteConfigError(.decodingFailed(type: type, value: value), reason: reason)
    }

    /// Persisted state could not be read or written.
    public static func persistence(path: String, reason: String) -> RemoteConfigError {
        RemoteConfigError(.persistence(path: path), reason: reason)
    }

    /// The realtime update stream reported a problem (it could not connect, a message was unreadable, the
    /// service turned realtime off, or the announced template could not be fetched); polling still works.
    public static func realtime(_ reason: String) -> RemoteConfigError {
        RemoteConfigError(.realtime, reason: reason)
    }

    /// Whether the last fetch failed (``cause`` says why).
    public var isFetchFailed: Bool {
        if case .fetchFailed = code { return true }
        return false
    }

    /// Whether fetching is throttled (``throttledUntil`` says until when).
    public var isThrottled: Bool { throttledUntil != nil }

    /// The throttle end time, if this is ``throttled(until:cause:)``.
    public var throttledUntil: Date? {
        if case .throttled(let until, _) = code { return until }
        return nil
    }

    /// The provider's failure behind a failed or throttled fetch, if known.
    public var cause: RemoteConfigProviderError? {
        switch code {
        case .fetchFailed(let cause): return cause
        case .throttled(_, let cause): return cause
        default: return nil
        }
    }

    /// Whether a defaults file could not be read or parsed (``path`` names it).
    public var isInvalidDefaultsFile: Bool {
        if case .invalidDefaultsFile = code { return true }
        return false
    }

    /// Whether a default value has an unsupported type (``key`` names it).
    public var isInvalidDefault: Bool {
        if case .invalidDefault = code { return true }
        return false
    }

    /// Whether a custom signal breaks Firebase's limits (``key`` names it).
    public var isInvalidCustomSignal: Bool {
        if case .invalidCustomSignal = code { return true }
        return false
    }

    /// Whether a value could not be decoded as the requested type.
    public var isDecodingFailed: Bool {
        if case .decodingFailed = code { return true }
        return false
    }

    /// Whether persisted state could not be read or written (``path`` names the file).
    public var isPersistence: Bool {
        if case .persistence = code { return true }
        return false
    }

    /// Whether the realtime update stream reported a problem.
    public var isRealtime: Bool { code == .realtime }

    /// The file of a defaults-file or persistence error.
    public var path: String? {
        switch code {
        case .invalidDefaultsFile(let path), .persistence(let path): return path
        default: return nil
        }
    }

    /// The key of an invalid default or custom signal.
    public var key: String? {
        switch code {
        case .invalidDefault(let key), .invalidCustomSignal(let key): return key
        default: return nil
        }
    }

    /// For a decoding failure, the requested type's name.
    public var decodingType: String? {
        if case .decodingFailed(let type, _) = code { return type }
        return nil
    }

    /// For a decoding failure, the text that could not be decoded.
    public var undecodedValue: String? {
        if case .decodingFailed(_, let value) = code { return value }
        return nil
    }

    /// A one-line message naming the file, key or field and what was expected.
    public var description: String {
        switch code {
        case .fetchFailed(let cause):
            return "remote config fetch failed: \(cause)"
        case .throttled(let until, let cause):
            let reason = cause.map { " after \($0)" } ?? ""
            return "remote config fetch throttled until \(until.formatted(.iso8601))\(reason)"
        case .invalidDefaultsFile(let path):
            return "\(path): \(reason)"
        case .invalidDefault(let key):
            return "default for key \"\(key)\": \(reason)"
        case .invalidCustomSignal(let key):
            return "custom signal \"\(key)\": \(reason)"
        case .decodingFailed(let type, let value):
            return "cannot decode \"\(value)\" as \(type): \(reason)"
        case .persistence(let path):
            return "\(path): \(reason)"
        case .realtime:
            return "remote config realtime updates: \(reason)"
        }
    }
}
