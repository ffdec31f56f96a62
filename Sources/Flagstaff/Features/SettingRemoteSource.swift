import Foundation
import Synchronization

/// Where a ``Setting`` can take its remote value from: `FlagstaffRemote`'s `RemoteConfig` (a Firebase-style
/// parameter) or an Unleash client (a flag's variant payload). The core knows no remote-config types; the
/// remote modules conform.
public protocol SettingRemoteSource: AnyObject, Sendable {
    /// The counter this source advances whenever a value it offers may have changed; the same object on every
    /// call. A setting asks for it once, when bound, and compares it on every read with the generation its remote
    /// value was decoded for: a value is decoded once per generation, never per read.
    var settingValueGeneration: SettingSourceGeneration { get }

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
    /// How the source arrived at the value, for explanations (flagd: the variant and the reason); `nil` names
    /// the key instead. Set by this package's sources.
    package var detail: String?

    /// Creates a value.
    public init(text: String, provider: String, fetchedAt: Date?) {
        self.init(text: text, provider: provider, fetchedAt: fetchedAt, detail: nil)
    }

    /// Creates a value with the detail its explanation shows.
    package init(text: String, provider: String, fetchedAt: Date?, detail: String?) {
        self.text = text
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.detail = detail
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

/// A remote source's generation: a counter the source advances after its values changed (an activation, a new
/// answer), which settings bound to it read on every read (one load) to know whether their decoded value is current.
///
/// ```swift
/// let settingValueGeneration = SettingSourceGeneration()
/// func apply(_ values: [String: String]) {
///     self.values.withLock { $0 = values }
///     settingValueGeneration.advance()   // after the change: a read that sees the new generation sees the values
/// }
/// ```
public final class SettingSourceGeneration: Sendable {
    @usableFromInline let counter = Atomic<UInt64>(1)

    /// Creates a counter at generation 1.
    public init() {}

    /// The current generation (never 0).
    @inlinable
    public var current: UInt64 { counter.load(ordering: .acquiring) }

    /// Moves to the next generation. Call it after the source's values changed: settings bound to the source
    /// decode their value again on their next read.
    public func advance() {
        counter.add(1, ordering: .releasing)
    }
}
