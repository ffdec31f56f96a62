import Flagstaff
import Foundation

/// Where a ``RemoteConfigValue`` came from.
///
/// A read checks the active fetched config first (``remote``), then the in-app defaults (``default``); a key in
/// neither yields an empty value with source ``static``.
public enum RemoteConfigSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The value comes from the active (fetched and activated) remote config.
    case remote
    /// The value comes from the in-app defaults.
    case `default`
    /// No value exists for the key; the value is empty.
    case `static`
}

/// One remote-config value: raw bytes plus where they came from, with the Firebase Apple SDK's conversions.
///
/// Values are stored the way Firebase stores them: strings as UTF-8, numbers as their decimal string
/// (`true` → `"1"`), arrays and dictionaries as compact JSON. The typed accessors (``stringValue``,
/// ``numberValue``, ``boolValue``, ``jsonValue``) reproduce the Apple SDK's rules exactly, including their
/// leniency: `"12abc".numberValue == 12`, `"yes".boolValue == true`, `"on".boolValue == false`.
///
/// Values are immutable and cheap to copy.
public struct RemoteConfigValue: Sendable, Hashable {
    /// The raw bytes.
    public let dataValue: Data
    /// Where the value came from.
    public let source: RemoteConfigSource

    /// Creates a value from raw bytes.
    ///
    /// - Parameters:
    ///   - data: The stored bytes (normally UTF-8 text).
    ///   - source: Where the value came from.
    public init(data: Data, source: RemoteConfigSource) {
        self.dataValue = data
        self.source = source
    }

    /// Creates a value from a string, stored as UTF-8.
    ///
    /// - Parameters:
    ///   - string: The value's text.
    ///   - source: Where the value came from.
    public init(string: String, source: RemoteConfigSource) {
        self.init(data: Data(string.utf8), source: source)
    }

    /// An empty value with source ``RemoteConfigSource/static``, returned for unknown keys.
    public static let empty = RemoteConfigValue(data: Data(), source: .static)

    /// The bytes decoded as UTF-8, or `""` if they are not valid UTF-8.
    public var stringValue: String {
        String(validating: dataValue, as: UTF8.self) ?? ""
    }

    /// The value as a number, as `NSString.doubleValue` reads it.
    ///
    /// Leading whitespace is skipped, then the longest prefix that forms a decimal number (optional sign,
    /// digits with an optional fraction, optional exponent) is converted; if there is none the result is `0`.
    /// `"12abc"` → 12, `" -1.5e2x"` → -150, `"true"` → 0, `""` → 0.
    public var numberValue: Double {
        RemoteConfigValueParsing.leadingDouble(in: stringValue)
    }

    /// The value as a Boolean, as `NSString.boolValue` reads it.
    ///
    /// Leading whitespace is skipped; a `t`, `T`, `y` or `Y` next means `true`. Otherwise an optional `+`/`-`
    /// and any number of `0`s are skipped, and the value is `true` only if the next character is `1`–`9`.
    /// So `"yes"`, `"True"`, `"1"`, `"01"`, `"-1"` are `true`; `"on"`, `"0"`, `"0.5"`, `"false"`, `""` are `false`.
    public var boolValue: Bool {
        RemoteConfigValueParsing.leadingBool(in: stringValue)
    }

    /// The value parsed as JSON, if it is a JSON object (`[String: Any]`) or array (`[Any]`); otherwise `nil`.
    ///
    /// Scalars such as `"3"` or `"\"text\""` yield `nil`, as in the Apple SDK.
    public var jsonValue: Any? {
        guard !dataValue.isEmpty, let object = try? JSONValue.readFoundation(dataValue) else { return nil }
        if object is [String: Any] || object is [Any] { return object }
        return nil
    }
}

extension RemoteConfigValue: CustomStringConvertible {
    /// The string value and the source, e.g. `"true" (remote)`.
    public var description: String {
        "\"\(stringValue)\" (\(source.rawValue))"
    }
}
