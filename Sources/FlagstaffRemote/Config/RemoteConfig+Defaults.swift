import Flagstaff
import Foundation

extension RemoteConfig {
    /// Replaces the in-app defaults.
    ///
    /// Values are stored like Firebase (see ``RemoteConfigValue/fromDefault(_:key:)``): strings as UTF-8,
    /// numbers as their decimal string (`true` → `"1"`), arrays and dictionaries as compact JSON. Defaults are
    /// not persisted: set them at every launch.
    ///
    /// - Parameter defaults: Key → `String`, `Bool`, integer, `Double`, `Data`, `Date`, array or dictionary.
    /// - Throws: ``RemoteConfigError/invalidDefault(key:reason:)`` naming the first unsupported key; the
    ///   previous defaults are then kept.
    public func setDefaults(_ defaults: [String: Any]) throws(RemoteConfigError) {
        var converted: [String: RemoteConfigValue] = [:]
        for key in defaults.keys.sorted() {
            guard let value = defaults[key] else { continue }
            converted[key] = try RemoteConfigValue.fromDefault(value, key: key)
        }
        state.withLock { $0.setDefaults(converted) }
    }

    /// Replaces the in-app defaults with the top-level object of a JSON file.
    ///
    /// - Parameter url: A file holding one JSON object, e.g. `{"isRoundedAvatar": false, "maxItems": 20}`.
    /// - Throws: ``RemoteConfigError/invalidDefaultsFile(path:reason:)`` if the file cannot be read, is not
    ///   JSON, or is not an object; ``RemoteConfigError/invalidDefault(key:reason:)`` for a bad value.
    public func setDefaults(fromJSONFile url: URL) throws(RemoteConfigError) {
        let data = try Self.readDefaultsFile(url)
        let object: Any
        do throws(JSONValue.SyntaxError) {
            // The package's reader (a repeated key, a lone surrogate or a byte-order mark read as every other
            // JSON file is), into the Foundation objects `setDefaults(_:)` takes.
            object = try JSONValue.readFoundation(data)
        } catch {
            throw .invalidDefaultsFile(path: url.path, reason: "not valid JSON: \(error.message)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw .invalidDefaultsFile(
                path: url.path, reason: "expected a JSON object at the top level, found \(Self.kind(of: object))")
        }
        try setDefaults(dictionary)
    }

    /// Replaces the in-app defaults with the top-level dictionary of a property list (XML or binary).
    ///
    /// - Parameter url: A `.plist` file whose root is a dictionary.
    /// - Throws: ``RemoteConfigError/invalidDefaultsFile(path:reason:)`` if the file cannot be read, is not a
    ///   property list, or its root is not a dictionary; ``RemoteConfigError/invalidDefault(key:reason:)`` for a bad value.
    public func setDefaults(fromPropertyListFile url: URL) throws(RemoteConfigError) {
        let data = try Self.readDefaultsFile(url)
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .invalidDefaultsFile(
                path: url.path, reason: "not a valid property list: \((error as NSError).localizedDescription)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw .invalidDefaultsFile(
                path: url.path, reason: "expected a dictionary at the root, found \(Self.kind(of: object))")
        }
        try setDefaults(dictionary)
    }

    /// The defaults currently set, as values with source ``RemoteConfigSource/default``.
    public var defaults: [String: RemoteConfigValue] {
        values.read { $0.defaults }
    }

    private static func readDefaultsFile(_ url: URL) throws(RemoteConfigError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .invalidDefaultsFile(
                path: url.path, reason: "cannot read: \((error as NSError).localizedDescription)")
        }
    }

    private static func kind(of object: Any) -> String {
        switch object {
        case is [Any]: "an array"
        case is String: "a string"
        case is NSNull: "null"
        default: RemoteConfigValue.numberText(object) != nil ? "a number" : "\(type(of: object))"
        }
    }
}
