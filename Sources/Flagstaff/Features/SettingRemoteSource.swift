import Foundation

/// Where a ``Setting`` can take its remote value from: `FlagstaffRemote`'s `RemoteConfig` (a Firebase-style
/// parameter) or an Unleash client (a flag's variant payload). The core knows no remote-config types; the
/// remote modules conform.
public protocol SettingRemoteSource: AnyObject, Sendable {
    /// A number that changes whenever a value this source offers may have changed. A setting decodes its remote
    /// value once per generation, never per read, so this must be cheap (an atomic load).
    var settingValueGeneration: UInt64 { get }

    /// The active remote value for `key` as text, or `nil` when the source has none.
    /// - Parameter key: the remote key (a parameter name, an Unleash flag name).
    func settingRemoteValue(forKey key: String) -> RemoteSettingValue?

    /// Decodes a value this source delivered as `type`, the way the source's own SDK does (Firebase reads
    /// `"12abc"` as the integer 12, for example). The default decodes with `SettingValue.decode(remoteText:)`.
    /// - Returns: the value, or why it is not a value of the type.
    func decodeSettingValue<Value: SettingValue>(_ raw: RemoteSettingValue, as type: Value.Type) -> Result<
        Value, SettingValueError
    >
}

extension SettingRemoteSource {
    /// Decodes with `SettingValue.decode(remoteText:)`.
    public func decodeSettingValue<Value: SettingValue>(_ raw: RemoteSettingValue, as type: Value.Type) -> Result<
        Value, SettingValueError
    > {
        guard let value = Value.decode(remoteText: raw.text) else {
            return .failure(SettingValueError("not a valid \(Value.settingType.name)"))
        }
        return .success(value)
    }
}

/// A remote value as delivered: text, decoded by the setting's type (`SettingValue.decode(remoteText:)`).
public struct RemoteSettingValue: Sendable, Hashable {
    /// The value's text (a Firebase parameter's string, an Unleash payload's `value`).
    public var text: String
    /// The provider's display name, e.g. `Firebase` or `Unleash`.
    public var provider: String
    /// When the value was fetched, if known.
    public var fetchedAt: Date?

    /// Creates a value.
    public init(text: String, provider: String, fetchedAt: Date?) {
        self.text = text
        self.provider = provider
        self.fetchedAt = fetchedAt
    }
}

/// A setting's remote binding: the source and the key to read there.
public struct SettingRemoteBinding: Sendable {
    /// The source.
    public let source: any SettingRemoteSource
    /// The key in the source.
    public let key: String

    /// Binds to `key` in `source`.
    public init(source: any SettingRemoteSource, key: String) {
        self.source = source
        self.key = key
    }
}
