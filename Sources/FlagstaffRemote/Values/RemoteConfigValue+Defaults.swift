import Foundation

extension RemoteConfigValue {
    /// Converts an in-app default to a value with source ``RemoteConfigSource/default``, storing it like Firebase.
    ///
    /// Strings are stored as UTF-8; Booleans as `"1"`/`"0"`; integers and floating-point numbers as their
    /// decimal string (a whole `Double` without a fraction, e.g. `3.0` → `"3"`); `Data` as-is; `Date` as
    /// `yyyy-MM-dd HH:mm:ss` in the local time zone (as the SDK's date formatter, which sets no zone); arrays and dictionaries as compact JSON. Works with Swift values and with
    /// what `JSONSerialization` / `PropertyListSerialization` produce (`NSNumber` Booleans included).
    ///
    /// - Parameters:
    ///   - value: The default value.
    ///   - key: The key, used in the error message.
    /// - Returns: The stored value.
    /// - Throws: ``RemoteConfigError/invalidDefault(key:reason:)`` for unsupported types (e.g. `NSNull`)
    ///   or collections that cannot be encoded as JSON.
    public static func fromDefault(_ value: Any, key: String) throws(RemoteConfigError) -> RemoteConfigValue {
        func stored(_ text: String) -> RemoteConfigValue { RemoteConfigValue(string: text, source: .default) }
        switch value {
        case let string as String:
            return stored(string)
        case let value as RemoteConfigValue:
            return RemoteConfigValue(data: value.dataValue, source: .default)
        case let data as Data:
            return RemoteConfigValue(data: data, source: .default)
        case let date as Date:
            return stored(Self.defaultDateText(date, timeZone: .current))
        default:
            break
        }
        if let text = numberText(value) { return stored(text) }
        if value is [Any] || value is [String: Any] {
            guard JSONSerialization.isValidJSONObject(value),
                let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
            else { throw .invalidDefault(key: key, reason: "the collection cannot be encoded as JSON") }
            return RemoteConfigValue(data: data, source: .default)
        }
        throw .invalidDefault(
            key: key,
            reason:
                "unsupported type \(type(of: value)); expected a string, number, Boolean, data, date, array or dictionary"
        )
    }

    /// The text Firebase stores for a number or Boolean (`true` → `"1"`, `3.0` → `"3"`, `0.5` → `"0.5"`).
    ///
    /// Understands Swift numbers and Booleans and Foundation's `NSNumber` (including JSON Booleans).
    ///
    /// - Parameter value: The value.
    /// - Returns: The decimal text, or `nil` if `value` is not a number or Boolean.
    package static func storedNumberText(_ value: Any) -> String? {
        numberText(value)
    }

    /// The decimal text of a numeric or Boolean value, or `nil` if `value` is not one.
    static func numberText(_ value: Any) -> String? {
        if type(of: value) == Bool.self, let flag = value as? Bool { return flag ? "1" : "0" }
        if let number = value as? NSNumber, type(of: value) is NSNumber.Type {
            switch String(cString: number.objCType) {
            case "c", "B":
                // Foundation's Boolean NSNumber (from JSON `true`) reports the `char` type.
                return number.boolValue ? "1" : "0"
            case "f", "d":
                return decimalText(number.doubleValue)
            case "Q", "L", "I", "S", "C":
                return String(number.uint64Value)
            default:
                return String(number.int64Value)
            }
        }
        if let integer = value as? any BinaryInteger { return String(describing: integer) }
        if let double = value as? Double { return decimalText(double) }
        if let float = value as? Float { return decimalText(Double(float)) }
        return nil
    }

    /// A whole number without a fraction (`3.0` → `"3"`), otherwise Swift's shortest round-trip form.
    static func decimalText(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 9.0e15 {
            return String(Int64(number))
        }
        return String(number)
    }

    /// `yyyy-MM-dd HH:mm:ss` in `timeZone`, as the Apple SDK stores `NSDate` defaults (it uses the local zone).
    ///
    /// - Parameters:
    ///   - date: The date.
    ///   - timeZone: The zone the wall-clock time is written in.
    /// - Returns: The text, e.g. `2026-11-23 19:05:00`.
    package static func defaultDateText(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2)) "
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
    }
}
