import Flagstaff
import Foundation

/// One flag's definition as written, for tools that show it and for registering it as a registry member.
public struct FlagdFlagDefinition: Sendable, Equatable {
    /// The flag's key.
    public var key: String
    /// Whether its `state` is `ENABLED`.
    public var enabled: Bool
    /// Its variants by name.
    public var variants: [String: JSONSettingValue]
    /// Its default variant's name, if it has one.
    public var defaultVariant: String?
    /// Its targeting as written (`nil` when it has none).
    public var targeting: JSONSettingValue?
}

extension FlagdDefinitions {
    /// The definition of the flag `key`, or `nil` when the definitions lack it.
    /// - Parameter key: the flag's key.
    public func definition(of key: String) -> FlagdFlagDefinition? {
        guard let flag = flags[exactly: key] else { return nil }
        return FlagdFlagDefinition(
            key: flag.key, enabled: flag.enabled, variants: flag.variants, defaultVariant: flag.defaultVariant,
            targeting: flag.writtenTargeting)
    }

    /// Whether `data` is a flag definitions document rather than another JSON file (a Flagstaff manifest, whose
    /// `flags` is an array): a JSON object whose `flags` is an object.
    /// - Parameter data: the document.
    public static func isDefinitionsDocument(_ data: Data) -> Bool {
        guard case .object(let top)? = try? JSONValue.read(data), case .object? = top["flags"] else { return false }
        return true
    }
}

extension FlagdDefinitions {
    /// Definitions made of flags already read (none: a source before its first fetch).
    init(flagsByKey flags: [String: FlagdFlag], bucketing: FlagdBucketing) {
        self.flags = flags
        self.bucketing = bucketing
    }
}
