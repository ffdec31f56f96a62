import Flagstaff
import FlagstaffFlagd
import Foundation

/// flagd definitions and their JsonLogic rules (FlagstaffFlagd).
extension FuzzTarget {
    /// Contexts every loaded flag is evaluated in.
    private static let flagdContexts: [[String: JSONSettingValue]] = [
        [:],
        ["targetingKey": .string("user-1"), "email": .string("a@b.c"), "version": .string("1.2.3")],
        [
            "targetingKey": .number(3), "tags": .array([.string("a"), .null]), "age": .number(-0.5),
            "nested": .object(["name": .string("é")]),
        ],
    ]

    /// Checks one evaluation: a known reason, an error code exactly when the reason is `ERROR`, and a message with it.
    private static func checkFlagd(_ evaluation: FlagdEvaluation) {
        let reasons: Set<FlagdReason> = [.static, .targetingMatch, .default, .disabled, .error]
        if !reasons.contains(evaluation.reason) { FuzzCheck.fail("unknown reason \(evaluation.reason)") }
        if (evaluation.reason == .error) != (evaluation.errorCode != nil) {
            FuzzCheck.fail("reason \(evaluation.reason) with error code \(String(describing: evaluation.errorCode))")
        }
        if evaluation.errorCode != nil, evaluation.errorMessage?.isEmpty != false {
            FuzzCheck.fail("error \(String(describing: evaluation.errorCode)) without a message")
        }
        if evaluation.errorCode == nil, evaluation.reason != .disabled, evaluation.reason != .default,
            evaluation.variant == nil
        {
            FuzzCheck.fail("reason \(evaluation.reason) without a variant")
        }
    }

    private static func evaluateAll(_ definitions: FlagdDefinitions) {
        for key in definitions.keys {
            for context in flagdContexts {
                for type in [FlagdValueType.any, .boolean, .integer] {
                    checkFlagd(definitions.evaluate(key, context: context, type: type, timestamp: 1_700_000_000))
                }
            }
        }
        checkFlagd(definitions.evaluate("no such flag"))
    }

    /// ``FlagdDefinitions/init(json:source:bucketing:)`` with a definitions document, both bucketing versions.
    static let flagdDefinitions = FuzzTarget(
        name: "flagd-definitions",
        summary: "flagd definitions reader (FlagdDefinitions); every flag evaluated in three contexts, v2 and v3"
    ) { data in
        for bucketing in [FlagdBucketing.version2, .version3] {
            let definitions: FlagdDefinitions
            do {
                definitions = try FlagdDefinitions(json: data, source: "fuzz", bucketing: bucketing)
            } catch {
                FuzzCheck.described(error, as: FlagdDefinitionsError.self, by: "FlagdDefinitions")
                return
            }
            _ = definitions.problems
            evaluateAll(definitions)
        }
    }

    /// A JsonLogic rule as a flag's targeting (with a shared rule to refer to), compiled and evaluated.
    static let flagdRules = FuzzTarget(
        name: "flagd-rules",
        summary: "flagd JsonLogic rules (compiled once, evaluated in three contexts, v2 and v3)"
    ) { data in
        guard let rule = try? JSONValue.read(data) else { return }
        let variants: JSONSettingValue = .object([
            "a": .string("A"), "b": .number(2), "true": .bool(true), "false": .bool(false), "1": .number(1),
        ])
        let document: JSONSettingValue = .object([
            "$evaluators": .object([
                "shared": .object(["in": .array([.object(["var": .string("email")]), .array([.string("a@b.c")])])])
            ]),
            "flags": .object([
                "rule": .object([
                    "state": .string("ENABLED"), "variants": variants, "defaultVariant": .string("a"),
                    "targeting": rule,
                ])
            ]),
        ])
        for bucketing in [FlagdBucketing.version2, .version3] {
            do {
                let definitions = try FlagdDefinitions(
                    json: Data(document.overrideValue.json.utf8), source: "fuzz", bucketing: bucketing)
                evaluateAll(definitions)
            } catch {
                FuzzCheck.fail("a document around a JSON rule was refused: \(error)")
            }
        }
    }
}
