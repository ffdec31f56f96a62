import Flagstaff
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
    /// - Types that decode from a single value (`String`- or `Int`-backed enums, `Optional`, wrappers) are decoded
    ///   with `JSONDecoder` from the JSON of ``stringValue``, else ``numberValue``, else ``boolValue`` (the first
    ///   the type accepts): `"dark"` decodes as `Theme.dark`, `"3"` as an `Int`-backed enum's case 3.
    /// - Types that decode from a keyed or unkeyed container (structs, dictionaries, arrays) are decoded from the
    ///   value's JSON object or array with `JSONDecoder`; anything else throws.
    ///
    /// - Parameter type: The type to decode.
    /// - Returns: The decoded value.
    /// - Throws: ``RemoteConfigError/decodingFailed(type:value:reason:)`` naming the type and why.
    public func decoded<T: Decodable>(as type: T.Type = T.self) throws(RemoteConfigError) -> T {
        func failed(_ reason: String) -> RemoteConfigError {
            .decodingFailed(type: String(describing: T.self), value: stringValue, reason: reason)
        }
        // The types the SDK reads through the typed accessors, the commonest first (each check is a comparison of
        // metatypes; `decoded(as: Int)` is measured in flagstaff-bench remote).
        if T.self == Bool.self, let value = boolValue as? T { return value }
        if T.self == Int.self { return try exact(Int(exactly: numberValue)) }
        if T.self == String.self, let value = stringValue as? T { return value }
        if T.self == Double.self, let value = numberValue as? T { return value }
        if T.self == Date.self {
            throw failed("Date is not supported (as in the Firebase SDK); decode a String or a number and convert it")
        }
        if T.self == Data.self, let value = dataValue as? T { return value }
        if T.self == Decimal.self, let value = Decimal(numberValue) as? T { return value }
        if T.self == Float.self {
            guard abs(numberValue) <= Double(Float.greatestFiniteMagnitude), let value = Float(numberValue) as? T
            else { throw failed("the number \(Self.decimalText(numberValue)) does not fit in Float") }
            return value
        }
        if T.self == Int8.self { return try exact(Int8(exactly: numberValue)) }
        if T.self == Int16.self { return try exact(Int16(exactly: numberValue)) }
        if T.self == Int32.self { return try exact(Int32(exactly: numberValue)) }
        if T.self == Int64.self { return try exact(Int64(exactly: numberValue)) }
        if T.self == UInt.self { return try exact(UInt(exactly: numberValue)) }
        if T.self == UInt8.self { return try exact(UInt8(exactly: numberValue)) }
        if T.self == UInt16.self { return try exact(UInt16(exactly: numberValue)) }
        if T.self == UInt32.self { return try exact(UInt32(exactly: numberValue)) }
        if T.self == UInt64.self { return try exact(UInt64(exactly: numberValue)) }
        return try decodedFromJSON(T.self)
    }

    /// An integer converted from ``numberValue`` by its concrete type's `init(exactly:)` (the generic one, unspecialized
    /// here, took several times as long), as `T` (its type); `nil` when the number is not whole or does not fit.
    private func exact<I, T>(_ integer: I?) throws(RemoteConfigError) -> T {
        guard let integer, let value = integer as? T else {
            throw .decodingFailed(
                type: String(describing: I.self), value: stringValue,
                reason: "the number \(Self.decimalText(numberValue)) does not fit in \(I.self)")
        }
        return value
    }

    /// Any other type, through `JSONDecoder` (the boundary of the app's `Decodable` types): a value that is a JSON
    /// object or array is decoded from its text; a scalar from the JSON of its accessors, in the SDK decoder's
    /// order of answering a single-value request: ``stringValue``, then ``numberValue``, then ``boolValue``
    /// (so `"grid"` decodes a `String`-backed enum, `"3"` an `Int`-backed one).
    private func decodedFromJSON<T: Decodable>(_ type: T.Type) throws(RemoteConfigError) -> T {
        func failed(_ reason: String) -> RemoteConfigError {
            .decodingFailed(type: String(describing: T.self), value: stringValue, reason: reason)
        }
        if jsonValue != nil {
            do {
                return try Self.decodeJSON(T.self, from: dataValue)
            } catch {
                throw failed("not valid JSON for \(T.self): \(Self.describe(error))")
            }
        }
        let number = numberValue
        let candidates = [
            JSONText.quoted(stringValue), number.isFinite ? Self.decimalText(number) : "0",
            boolValue ? "true" : "false",
        ]
        var firstError: (any Error)?
        for candidate in candidates {
            do {
                return try Self.decodeJSON(T.self, from: Data(candidate.utf8))
            } catch DecodingError.typeMismatch(let expected, let context) where context.codingPath.isEmpty {
                // The type asked for another kind of value: try the next accessor; a structure is none of them.
                if expected is [String: Any].Type || "\(expected)".hasPrefix("Dictionary") {
                    throw failed("expected a JSON object")
                }
                if expected is [Any].Type || "\(expected)".hasPrefix("Array") { throw failed("expected a JSON array") }
                firstError = firstError ?? DecodingError.typeMismatch(expected, context)
            } catch {
                throw failed(Self.describe(error))
            }
        }
        throw failed(firstError.map(Self.describe) ?? "no accessor's value decodes as \(T.self)")
    }

    /// The one `JSONDecoder` of the module: the app's `Decodable` types are decoded with it.
    private static func decodeJSON<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(T.self, from: data)
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
