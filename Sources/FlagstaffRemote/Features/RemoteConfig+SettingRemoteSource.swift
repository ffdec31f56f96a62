import Flagstaff
import Foundation

extension RemoteConfig: SettingRemoteSource {
    /// Advanced by each activation (``activeConfigGeneration``): settings bound to this config decode their value
    /// once per activation.
    public var settingValueGeneration: SettingSourceGeneration { generation }

    /// The active value of `key` as a string (``RemoteConfigValue/stringValue``), or `nil` when the active
    /// config does not have it (in-app defaults do not count, as for ``RemoteFeature``).
    public func settingRemoteValue(forKey key: String) -> RemoteSettingValue? {
        guard let value = activeValue(forKey: key) else { return nil }
        return RemoteSettingValue(text: value.stringValue, provider: name, fetchedAt: lastFetchTime)
    }

    /// Decodes as the Firebase SDK does (``RemoteConfigValue/decoded(as:)``): strings as they are, `Bool` through
    /// ``RemoteConfigValue/boolValue``, numbers through ``RemoteConfigValue/numberValue`` with a must-fit check
    /// (`"12abc"` is 12, `"2.5"` is not an `Int`), enum cases by raw value, other types from the value's JSON.
    public func decodeSettingValue<Value: SettingValue>(_ raw: RemoteSettingValue, as type: Value.Type) -> Result<
        Value, SettingValueError
    > {
        do {
            return .success(try RemoteConfigValue(string: raw.text, source: .remote).decoded(as: Value.self))
        } catch {
            if error.isDecodingFailed { return .failure(SettingValueError(error.reason)) }
            return .failure(SettingValueError("\(error)"))
        }
    }

    /// A binding of a ``Setting`` to the parameter `key` of this config:
    /// `Setting(default: 20, remote: remoteConfig.binding("max_items"))`.
    ///
    /// The setting takes the active value, decoded as the Firebase SDK decodes it (``decodeSettingValue(_:as:)``);
    /// a value that does not decode, or lies outside the setting's range or choices, is ignored and explained.
    /// Once the config is attached to the setting's registry (``attach(to:)``), each activation that changes
    /// `key` notifies the registry's subscribers with the setting's key.
    /// - Parameter key: the parameter key.
    public func binding(_ key: String) -> SettingRemoteBinding {
        SettingRemoteBinding(source: self, key: key)
    }
}
