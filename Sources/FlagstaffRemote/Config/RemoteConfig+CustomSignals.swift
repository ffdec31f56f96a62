import Foundation

/// A custom signal value sent with each fetch, for targeting conditions on the server.
public enum RemoteConfigCustomSignal: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    /// A string, at most 500 characters.
    case string(String)
    /// An integer.
    case integer(Int)
    /// A floating-point number (finite).
    case double(Double)

    /// Creates a string signal from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an integer signal from a literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// Creates a double signal from a literal.
    public init(floatLiteral value: Double) { self = .double(value) }

    /// The form sent to the server: the string itself, or the number's decimal text (`3.0` → `"3"`).
    public var wireValue: String {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        case .double(let number): RemoteConfigValue.decimalText(number)
        }
    }
}

extension RemoteConfig {
    /// Firebase's limit on custom signal key length (UTF-16 code units, as `NSString.length`).
    public static let customSignalMaximumKeyLength = 250
    /// Firebase's limit on custom signal string value length.
    public static let customSignalMaximumStringLength = 500
    /// Firebase's limit on the number of custom signals.
    public static let customSignalMaximumCount = 100

    /// Merges custom signals into the set sent with every fetch; a `nil` value removes that signal.
    ///
    /// Limits are Firebase's: keys at most 250 characters, string values at most 500, at most 100 signals
    /// after merging. Nothing changes if any signal is invalid. The signals are persisted with the metadata.
    ///
    /// - Parameter signals: Key → value, or `nil` to remove the key.
    /// - Throws: ``RemoteConfigError/invalidCustomSignal(key:reason:)`` naming the offending key and limit.
    public func setCustomSignals(_ signals: [String: RemoteConfigCustomSignal?]) throws(RemoteConfigError) {
        for key in signals.keys.sorted() {
            if key.isEmpty {
                throw .invalidCustomSignal(key: key, reason: "keys must not be empty")
            }
            if key.utf16.count > Self.customSignalMaximumKeyLength {
                throw .invalidCustomSignal(
                    key: String(key.prefix(40)) + "…",
                    reason: "key is \(key.utf16.count) characters; at most \(Self.customSignalMaximumKeyLength) allowed"
                )
            }
            switch signals[key] ?? nil {
            case .string(let text) where text.utf16.count > Self.customSignalMaximumStringLength:
                throw .invalidCustomSignal(
                    key: key,
                    reason:
                        "string value is \(text.utf16.count) characters; at most \(Self.customSignalMaximumStringLength) allowed"
                )
            case .double(let number) where !number.isFinite:
                throw .invalidCustomSignal(key: key, reason: "number must be finite, got \(number)")
            default:
                break
            }
        }
        try state.withLock { current throws(RemoteConfigError) in
            var merged = current.metadata.customSignals
            for (key, value) in signals {
                if let value { merged[key] = value.wireValue } else { merged.removeValue(forKey: key) }
            }
            guard merged.count <= Self.customSignalMaximumCount else {
                throw .invalidCustomSignal(
                    key: signals.keys.sorted().first ?? "",
                    reason:
                        "would make \(merged.count) custom signals; at most \(Self.customSignalMaximumCount) allowed"
                )
            }
            current.metadata.customSignals = merged
        }
        persist(fetched: false, active: false)
    }

    /// The custom signals sent with each fetch, in their wire (string) form.
    public var customSignals: [String: String] {
        state.withLock { $0.metadata.customSignals }
    }
}
