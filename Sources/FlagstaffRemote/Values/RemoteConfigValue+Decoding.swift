import Foundation

extension RemoteConfigValue {
    /// Decodes the value as `T` with the Firebase Apple SDK's decoder rules.
    ///
    /// The rules are those of the SDK's `decoded(asType:)`, which reads a value through its typed accessors:
    /// - `Bool` is ``boolValue``: `"yes"`, `"2"`, `"true"` → `true`; `""`, `"on"`, `"false"` → `false`. So
    ///   `decoded(as: Bool.self)` always equals ``boolValue`` and never throws.
    /// - Integer types read ``numberValue`` and must fit exactly: `"12abc"` → 12, `"1e3"` → 1000, `"12.0"` → 12;
    ///   `"2.5"` as `Int` and `"300"` as `Int8` throw.
    /// - `Double` is ``numberValue`` (`"abc"` → 0); `Float` throws when the number is beyond `Float`'s range;
    ///   `Decimal` is ``numberValue`` as a decimal.
    /// - `String` is ``stringValue``; `Data` is the raw bytes (``dataValue``).
    /// - `Date` throws (unsupported, as in the SDK).
    /// - Types that decode from a single value (`String`- or `Int`-backed enums, `Optional`, wrappers) get the
    ///   same rules: `"dark"` decodes as `Theme.dark`.
    /// - Types that decode from a keyed or unkeyed container (structs, dictionaries, arrays) are decoded from the
    ///   value's JSON object or array with `JSONDecoder`; anything else throws.
    ///
    /// - Parameter type: The type to decode.
    /// - Returns: The decoded value.
    /// - Throws: ``RemoteConfigError/decodingFailed(type:value:reason:)`` naming the type and why.
    public func decoded<T: Decodable>(as type: T.Type = T.self) throws(RemoteConfigError) -> T {
        let decoder = RemoteConfigValueDecoder(value: self)
        do {
            return try decoder.decodeTopLevel(T.self)
        } catch let error as RemoteConfigValueDecoder.NeedsContainer {
            return try decodeJSONContainer(T.self, kind: error.kind)
        } catch {
            throw .decodingFailed(
                type: String(describing: T.self), value: stringValue, reason: Self.describe(error))
        }
    }

    /// Decodes a structured type from the value's JSON, which must be an object (keyed) or an array (unkeyed).
    private func decodeJSONContainer<T: Decodable>(_ type: T.Type, kind: RemoteConfigValueDecoder.ContainerKind)
        throws(RemoteConfigError) -> T
    {
        let json = jsonValue
        let matches = kind == .keyed ? json is [String: Any] : json is [Any]
        guard matches else {
            throw .decodingFailed(
                type: String(describing: T.self), value: stringValue,
                reason: "expected a JSON \(kind == .keyed ? "object" : "array")")
        }
        do {
            return try JSONDecoder().decode(T.self, from: dataValue)
        } catch {
            throw .decodingFailed(
                type: String(describing: T.self), value: stringValue,
                reason: "not valid JSON for \(T.self): \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let decodingError = error as? DecodingError {
            switch decodingError {
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
                .keyNotFound(_, let context):
                let path = context.codingPath.map(\.stringValue).joined(separator: ".")
                return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
            @unknown default:
                return String(describing: decodingError)
            }
        }
        return String(describing: error)
    }
}
