import Flagstaff
import FlagstaffFlagd
import Foundation

/// Runs one test bed scenario's steps against ``FlagdDefinitions``.
///
/// The steps are the test bed's phrasings; a step this runner does not know fails the scenario (nothing is
/// skipped silently). Steps about a provider (`a stable flagd provider`, `an option …`) set nothing: the
/// evaluator needs no provider.
struct ScenarioRunner {
    let definitions: FlagdDefinitions

    /// Why the scenario failed, or `nil` when it passed.
    func run(_ scenario: GherkinFeature.Scenario) -> String? {
        var flagKey: String?
        var flagType = FlagdValueType.any
        var typeName = ""
        var defaultValue: JSONSettingValue?
        var context: [String: JSONSettingValue] = [:]
        var result: FlagdEvaluation?

        func fail(_ step: GherkinFeature.Step, _ message: String) -> String {
            "\(scenario.location) \(scenario.name): step \"\(step.text)\": \(message)"
                + (result.map { " (evaluation: \($0))" } ?? "")
        }

        for step in scenario.steps {
            let text = step.text
            let quoted = Self.quoted(text)
            if text == "an evaluator" || text == "a stable flagd provider" || text.hasPrefix("an option ") {
                continue
            }
            if let match = text.firstMatch(
                of: /^an? (\w+)-flag with key "(.*)" and a (?:fallback|default) value "(.*)"$/)
            {
                typeName = String(match.1)
                flagKey = String(match.2)
                guard let type = Self.types[typeName] else { return fail(step, "unknown flag type \(typeName)") }
                flagType = type
                guard let value = Self.value(String(match.3), typeName: typeName) else {
                    return fail(step, "cannot read the default \"\(match.3)\" as \(typeName)")
                }
                defaultValue = value
            } else if let match = text.firstMatch(
                of: /^a context containing a key "([^"]*)", with type "([^"]*)" and with value "(.*)"$/)
            {
                guard let value = Self.value(String(match.3), typeName: String(match.2)) else {
                    return fail(step, "cannot read \"\(match.3)\" as \(match.2)")
                }
                context[String(match.1)] = value
            } else if text.hasPrefix("a context containing a targeting key with value "), quoted.count == 1 {
                context["targetingKey"] = .string(quoted[0])
            } else if text.hasPrefix("a context containing a nested property with outer key "), quoted.count == 3 {
                context[quoted[0]] = .object([quoted[1]: .string(quoted[2])])
            } else if text == "the flag was evaluated with details" {
                guard let flagKey else { return fail(step, "no flag was given") }
                result = definitions.evaluate(flagKey, context: context, type: flagType, defaultValue: defaultValue)
            } else if let match = text.firstMatch(of: /^the resolved details value should be "(.*)"$/) {
                guard let result else { return fail(step, "nothing was evaluated") }
                guard let expected = Self.value(String(match.1), typeName: typeName) else {
                    return fail(step, "cannot read \"\(match.1)\" as \(typeName)")
                }
                if result.value != expected { return fail(step, "the value is \(String(describing: result.value))") }
            } else if text.hasPrefix("the reason should be "), quoted.count == 1 {
                guard let result else { return fail(step, "nothing was evaluated") }
                if result.reason.rawValue != quoted[0] { return fail(step, "the reason is \(result.reason)") }
            } else if text.hasPrefix("the error-code should be "), quoted.count == 1 {
                guard let result else { return fail(step, "nothing was evaluated") }
                let code = result.errorCode?.rawValue ?? ""
                if code != quoted[0] { return fail(step, "the error code is \"\(code)\"") }
            } else if text.hasPrefix("the variant should be "), quoted.count == 1 {
                guard let result else { return fail(step, "nothing was evaluated") }
                if result.variant != quoted[0] { return fail(step, "the variant is \(result.variant ?? "none")") }
            } else if text == "the resolved metadata is empty" {
                guard let result else { return fail(step, "nothing was evaluated") }
                if !result.metadata.isEmpty { return fail(step, "the metadata is \(result.metadata)") }
            } else if text == "the resolved metadata should contain" {
                guard let result else { return fail(step, "nothing was evaluated") }
                for row in step.table.dropFirst() where row.count == 3 {
                    guard let expected = Self.value(row[2], typeName: row[1]) else {
                        return fail(step, "cannot read \"\(row[2])\" as \(row[1])")
                    }
                    if result.metadata[row[0]] != expected {
                        return fail(step, "metadata \(row[0]) is \(String(describing: result.metadata[row[0]]))")
                    }
                }
            } else {
                return fail(step, "unknown step")
            }
        }
        return nil
    }

    static let types: [String: FlagdValueType] = [
        "Boolean": .boolean, "String": .string, "Integer": .integer, "Float": .float, "Object": .object,
    ]

    /// The double-quoted parts of a step.
    static func quoted(_ text: String) -> [String] {
        text.matches(of: /"((?:[^"\\]|\\.)*)"/).map { String($0.1) }
    }

    /// A step's value read as its type: `Boolean` `true`/`false`, `Integer`, `Float`, `String`, `Object` (JSON, a
    /// repeated member's last value winning, as the test bed's own runners read it).
    static func value(_ text: String, typeName: String) -> JSONSettingValue? {
        switch typeName {
        case "Boolean": return text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        case "Integer": return Int64(text).map { .number(Double($0)) }
        case "Float": return Double(text).map(JSONSettingValue.number)
        case "String": return .string(text)
        case "Object":
            // Values written inside a step's quotes escape their own quotes (`{\"a\": 1}`).
            var reader = LenientJSON(text: text)
            if let value = reader.read() { return value }
            var unescaped = LenientJSON(text: text.replacingOccurrences(of: "\\\"", with: "\""))
            return unescaped.read()
        default: return nil
        }
    }
}

/// JSON where an object may repeat a member (the last one wins), for the test bed's `Object` context values.
struct LenientJSON {
    private let bytes: [UInt8]
    private var offset = 0

    init(text: String) { bytes = Array(text.utf8) }

    mutating func read() -> JSONSettingValue? {
        guard let value = value() else { return nil }
        skipSpace()
        return offset == bytes.count ? value : nil
    }

    private mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    private mutating func value() -> JSONSettingValue? {
        skipSpace()
        guard offset < bytes.count else { return nil }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            offset += 1
            var members: [String: JSONSettingValue] = [:]
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard case .string(let name)? = value() else { return nil }
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return nil }
                offset += 1
                guard let member = value() else { return nil }
                members[name] = member
                skipSpace()
                guard offset < bytes.count else { return nil }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                } else if bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(members)
                } else {
                    return nil
                }
            }
        case UInt8(ascii: "["):
            offset += 1
            var elements: [JSONSettingValue] = []
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            while true {
                guard let element = value() else { return nil }
                elements.append(element)
                skipSpace()
                guard offset < bytes.count else { return nil }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                } else if bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(elements)
                } else {
                    return nil
                }
            }
        default:
            // A scalar: its extent, read by the package's reader.
            let start = offset
            if bytes[offset] == UInt8(ascii: "\"") {
                offset += 1
                while offset < bytes.count, bytes[offset] != UInt8(ascii: "\"") {
                    offset += bytes[offset] == UInt8(ascii: "\\") ? 2 : 1
                }
                offset += 1
            } else {
                while offset < bytes.count, !",]} \t\r\n".utf8.contains(bytes[offset]) { offset += 1 }
            }
            guard offset <= bytes.count else { return nil }
            return try? JSONSettingValue.read(Data(bytes[start..<offset]))
        }
    }
}
