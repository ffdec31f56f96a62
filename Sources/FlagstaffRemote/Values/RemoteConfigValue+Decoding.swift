import Foundation

extension RemoteConfigValue {
    /// Decodes the value as `T`.
    ///
    /// Scalars follow the stored text strictly: `String` is ``stringValue``; `Bool` accepts `true`/`false`
    /// (any case) and the SDK's numeric forms `1`/`0`; integer types accept only a number that fits the type
    /// exactly (`"12"` and `"12.0"` decode as `Int`, `"12.5"`, `"12abc"` and `"300"` as `Int8` throw);
    /// `Double`/`Float` accept a whole decimal number. Any other `Decodable` type is decoded from the value's
    /// JSON; a value that is not JSON is tried as a JSON string, so `String`-backed enums work.
    ///
    /// - Parameter type: The type to decode.
    /// - Returns: The decoded value.
    /// - Throws: ``RemoteConfigError/decodingFailed(type:value:reason:)`` if the text does not convert.
    public func decoded<T: Decodable>(as type: T.Type = T.self) throws(RemoteConfigError) -> T {
        let text = stringValue
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        func failure(_ reason: String) -> RemoteConfigError {
            .decodingFailed(type: String(describing: T.self), value: text, reason: reason)
        }
        if T.self == String.self, let string = text as? T { return string }
        if T.self == Bool.self {
            switch trimmed.lowercased() {
            case "true", "1": if let value = true as? T { return value }
            case "false", "0": if let value = false as? T { return value }
            default: break
            }
            throw failure("expected true, false, 1 or 0")
        }
        if let integerType = T.self as? any FixedWidthInteger.Type {
            guard let value = Self.exactInteger(trimmed, as: integerType) as? T else {
                throw failure("expected a whole number that fits \(T.self)")
            }
            return value
        }
        if T.self == Double.self || T.self == Float.self {
            guard let number = Double(trimmed), number.isFinite || trimmed.lowercased().contains("inf") else {
                throw failure("expected a decimal number")
            }
            if T.self == Float.self, let value = Float(number) as? T { return value }
            if let value = number as? T { return value }
        }
        let decoder = JSONDecoder()
        do {
            return try decoder.decode(T.self, from: dataValue)
        } catch let jsonError {
            // Not JSON: try the text as a JSON string literal (String-backed enums, wrappers of String).
            if let quoted = try? JSONEncoder().encode(text), let value = try? decoder.decode(T.self, from: quoted) {
                return value
            }
            throw failure("not valid JSON for \(T.self): \(Self.describe(jsonError))")
        }
    }

    /// Parses `text` as an integer of `type`, exactly: a plain integer, or a decimal with only zeros after
    /// the point, within the type's range.
    private static func exactInteger<I: FixedWidthInteger>(_ text: String, as type: I.Type) -> I? {
        if let value = I(text) { return value }
        var plain = text.hasPrefix("+") ? String(text.dropFirst()) : text
        if let dot = plain.firstIndex(of: ".") {
            let fraction = plain[plain.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0 == "0" }) else { return nil }
            plain = String(plain[..<dot])
            return I(plain)
        }
        return nil
    }

    private static func describe(_ error: any Error) -> String {
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
