import Flagstaff
import Foundation

/// flagd flag definitions, loaded once and evaluated in-process: the evaluator flagd's SDKs embed, for Swift.
///
/// ```swift
/// let definitions = try FlagdDefinitions(json: Data(contentsOf: url))
/// let checkout = definitions.evaluate("new-checkout", context: ["targetingKey": .string("user-42")])
/// if checkout.value == .bool(true) { /* … */ }
/// ```
///
/// Definitions are flagd's JSON (`flags`, with `state`, `variants`, `defaultVariant`, `targeting` and `metadata`;
/// shared rules in `$evaluators` used through `$ref`; flag set `metadata`). Targeting is JsonLogic with flagd's
/// operators `fractional`, `sem_ver`, `starts_with` and `ends_with`; it is compiled when the definitions are
/// loaded, so an evaluation reads no JSON. A targeting that cannot be compiled (an unknown operator, a `$ref` to
/// nothing, rules nested or sized beyond the limits) does not stop the others from loading: that flag's
/// evaluations fail with `PARSE_ERROR` and a message naming the flag and the place in its rule (see
/// ``problems``). Evaluations never trap: a rule that would run away (a `reduce` that keeps doubling an array)
/// fails with `GENERAL` when it exceeds its cost limit.
///
/// The value is immutable and `Sendable`: evaluate from any thread. See docs/flagd.md.
public struct FlagdDefinitions: Sendable {
    /// The flags by key.
    let flags: [String: FlagdFlag]
    /// How `fractional` hashes.
    public let bucketing: FlagdBucketing

    /// Loads one definitions document.
    /// - Parameters:
    ///   - json: the document (UTF-8, or UTF-16/32 JSON text).
    ///   - source: its name in error messages (a file's path).
    ///   - bucketing: how `fractional` hashes; version 2 is what flagd servers do today.
    /// - Throws: ``FlagdDefinitionsError`` naming the source and the JSON path when the document is not JSON or
    ///   a flag is malformed (a missing `state`, no `variants`, an unknown member).
    public init(json: Data, source: String = "definitions", bucketing: FlagdBucketing = .version2)
        throws(FlagdDefinitionsError)
    {
        try self.init(documents: [(source, json)], bucketing: bucketing)
    }

    /// Loads several documents; a flag in a later one replaces the flag with the same key in an earlier one, as
    /// flagd merges its sources. Each document's `$evaluators` and flag set `metadata` apply to its own flags.
    /// - Parameters:
    ///   - documents: each document's name (for messages) and text, earliest first.
    ///   - bucketing: how `fractional` hashes.
    /// - Throws: ``FlagdDefinitionsError`` for the first document that cannot be loaded.
    public init(documents: [(source: String, json: Data)], bucketing: FlagdBucketing = .version2)
        throws(FlagdDefinitionsError)
    {
        var flags: [String: FlagdFlag] = [:]
        for document in documents {
            for (key, flag) in try Self.read(document.json, source: document.source) { flags[key] = flag }
        }
        self.flags = flags
        self.bucketing = bucketing
    }

    /// Every flag's key, sorted.
    public var keys: [String] { flags.keys.sorted() }

    /// The flags whose targeting cannot be evaluated, with why (each message names the flag and the JSON path).
    public var problems: [String] {
        flags.keys.sorted().compactMap { key in
            if case .broken(let message) = flags[key]?.targeting { return message }
            return nil
        }
    }

    /// Evaluates one flag.
    ///
    /// The context is the evaluation context as flagd receives it: `targetingKey` (a string) and any other
    /// attributes. Rules also see `$flagd.flagKey` and `$flagd.timestamp` (Unix seconds).
    /// - Parameters:
    ///   - key: the flag's key.
    ///   - context: the evaluation context.
    ///   - type: the type asked for; a value of another type is a `TYPE_MISMATCH` error.
    ///   - defaultValue: the caller's default: the value when the flag is disabled, has no default variant, or
    ///     fails.
    ///   - timestamp: `$flagd.timestamp` (Unix seconds); `nil` reads the clock when a rule asks for it.
    /// - Returns: the evaluation; failures are evaluations with reason `ERROR` and an error code, never thrown.
    public func evaluate(
        _ key: String, context: [String: JSONSettingValue] = [:], type: FlagdValueType = .any,
        defaultValue: JSONSettingValue? = nil, timestamp: Int64? = nil
    ) -> FlagdEvaluation {
        guard let flag = flags[exactly: key] else {
            return FlagdEvaluation(
                key: key, value: defaultValue, variant: nil, reason: .error, errorCode: .flagNotFound,
                errorMessage: "flag \(JSONText.quoted(key)) is not in the definitions")
        }
        func failure(_ code: FlagdErrorCode, _ message: String) -> FlagdEvaluation {
            FlagdEvaluation(
                key: key, value: defaultValue, variant: nil, reason: .error, errorCode: code, errorMessage: message,
                metadata: flag.metadata)
        }
        func resolved(_ variant: String, _ value: JSONValue, _ reason: FlagdReason) -> FlagdEvaluation {
            guard type.accepts(value) else {
                return failure(
                    .typeMismatch,
                    "flag \(JSONText.quoted(key)): variant \(JSONText.quoted(variant)) is \(value.summary), "
                        + "not \(Self.name(of: type))")
            }
            return FlagdEvaluation(
                key: key, value: value, variant: variant, reason: reason, metadata: flag.metadata)
        }
        func byDefault(_ reason: FlagdReason) -> FlagdEvaluation {
            guard let name = flag.defaultVariant else {
                return FlagdEvaluation(
                    key: key, value: defaultValue, variant: nil, reason: .default, metadata: flag.metadata)
            }
            guard let value = flag.defaultValue else {
                return failure(
                    .general, "flag \(JSONText.quoted(key)): defaultVariant \(JSONText.quoted(name)) is not a variant")
            }
            return resolved(name, value, reason)
        }
        guard flag.enabled else {
            return FlagdEvaluation(
                key: key, value: defaultValue, variant: nil, reason: .disabled, metadata: flag.metadata)
        }
        let rule: Rule
        switch flag.targeting {
        case .none: return byDefault(.static)
        case .broken(let message): return failure(.parseError, message)
        case .rule(let compiled): rule = compiled
        }
        var evaluator = RuleEvaluator(flagKey: key, context: context, bucketing: bucketing, timestamp: timestamp)
        let result: JSONValue
        do throws(RuleFailure) {
            result = try evaluator.evaluate(rule, in: .context)
        } catch {
            return failure(error.code, "flag \(JSONText.quoted(key)): \(error.message)")
        }
        let name: String
        switch result {
        case .null: return byDefault(.default)
        case .string(let text): name = text
        case .bool(let flag): name = flag ? "true" : "false"
        case .number(let number): name = JSONLogicCoercion.nameText(number)
        case .array, .object:
            return failure(
                .general, "flag \(JSONText.quoted(key)): the targeting gave \(result.summary), which names no variant")
        }
        guard let value = flag.variants[exactly: name], value != .null else {
            return failure(
                .general,
                "flag \(JSONText.quoted(key)): the targeting chose \(JSONText.quoted(name)), which is not a variant")
        }
        return resolved(name, value, .targetingMatch)
    }

    private static func name(of type: FlagdValueType) -> String {
        switch type {
        case .any: "any value"
        case .boolean: "a boolean"
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .object: "an object"
        }
    }
}
