import Foundation

/// A property bound to a remote-config key, decoded on every read, with a fallback.
///
/// The read resolves like ``RemoteConfig/configValue(forKey:)`` (active remote value, then default) and
/// decodes it with ``RemoteConfigValue/decoded(as:)``. If the key has no value (source
/// ``RemoteConfigSource/static``) or the value does not decode as `Value`, the fallback is returned.
///
/// ```swift
/// struct MomentsSettings {
///     @RemoteConfigProperty(key: "maxPhotos", fallback: 9, config: remoteConfig) var maxPhotos: Int
/// }
/// ```
@propertyWrapper
public struct RemoteConfigProperty<Value: Decodable & Sendable>: Sendable {
    /// The remote-config key.
    public let key: String
    /// The value returned when the key is missing or does not decode.
    public let fallback: Value
    /// The config read from.
    public let config: RemoteConfig

    /// Binds a property to a key.
    ///
    /// - Parameters:
    ///   - key: The remote-config key.
    ///   - fallback: The value when the key is missing or invalid.
    ///   - config: The config to read.
    public init(key: String, fallback: Value, config: RemoteConfig) {
        self.key = key
        self.fallback = fallback
        self.config = config
    }

    /// The decoded current value, or the fallback.
    public var wrappedValue: Value {
        let value = config.configValue(forKey: key)
        guard value.source != .static else { return fallback }
        return (try? value.decoded(as: Value.self)) ?? fallback
    }

    /// The raw value with its source, via `$property`.
    public var projectedValue: RemoteConfigValue {
        config.configValue(forKey: key)
    }
}
