import Flagstaff
import Foundation

/// A JSON value in a command's JSON output (a setting's value, default or override; a launch snapshot entry).
///
/// Built from an ``OverrideValue``: integral numbers stay integers, other numbers doubles, and a boolean
/// member's `"on"`/`"off"` becomes `true`/`false` (see ``init(_:of:)``).
indirect enum ReportValue: Encodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([ReportValue])
    case object([String: ReportValue])

    /// The value as JSON; for a boolean member (a flag, a `Setting<Bool>`) `"on"`/`"off"` read as `true`/`false`.
    /// - Parameters:
    ///   - value: the value.
    ///   - member: the flag or setting it belongs to, or `nil` to keep the JSON as it is.
    init(_ value: OverrideValue, of member: AnyFeature?) {
        if member?.settingType == .boolean, let state = ValueText.booleanState(value) {
            self = .bool(state)
            return
        }
        self.init(jsonObject: value.jsonObject ?? NSNull())
    }

    /// A value read by `JSONSerialization`.
    init(jsonObject object: Any) {
        switch object {
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" {
                self = .bool(number.boolValue)
            } else if type == "Q" {
                self = .unsigned(number.uint64Value)
            } else if ["q", "l", "i", "s", "L", "I", "S"].contains(type) {
                self = .integer(number.int64Value)
            } else {
                let double = number.doubleValue
                if double == double.rounded(), abs(double) < 9.2e18 {
                    self = .integer(Int64(double))
                } else {
                    self = .double(double)
                }
            }
        case let array as [Any]:
            self = .array(array.map(ReportValue.init(jsonObject:)))
        case let dictionary as [String: Any]:
            self = .object(dictionary.mapValues(ReportValue.init(jsonObject:)))
        default:
            self = .null
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsigned(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
