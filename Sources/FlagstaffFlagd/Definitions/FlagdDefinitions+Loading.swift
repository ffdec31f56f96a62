import Flagstaff
import Foundation

/// Reading a flag definitions document: `flags`, `$evaluators`, `metadata`.
extension FlagdDefinitions {
    /// The members a flag may have (flagd's schema; `source` and `selector` are ignored, as flagd does).
    private static let flagMembers: Set<String> = [
        "state", "variants", "defaultVariant", "targeting", "metadata", "source", "selector",
    ]

    /// Reads one document into flags.
    static func read(_ data: Data, source: String) throws(FlagdDefinitionsError) -> [String: FlagdFlag] {
        let document: JSONValue
        do throws(JSONValue.SyntaxError) {
            document = try JSONValue.read(data)
        } catch {
            if let duplicate = error.duplicate {
                throw FlagdDefinitionsError("\(source): \(path(duplicate)): the member is written twice")
            }
            throw FlagdDefinitionsError("\(source): not JSON: \(error.detail ?? "unreadable")")
        }
        guard case .object(let top) = document else {
            throw FlagdDefinitionsError("\(source): $: expected an object with \"flags\", found \(document.summary)")
        }
        let flags: [String: JSONValue]
        switch top["flags"] {
        case nil, .null?: flags = [:]
        case .object(let members)?: flags = members
        case let other?:
            throw FlagdDefinitionsError("\(source): $.flags: expected an object, found \(other.summary)")
        }
        let setMetadata = try metadata(top["metadata"], at: "$.metadata", source: source)
        var evaluators: [String: JSONValue] = [:]
        switch top["$evaluators"] {
        case nil, .null?: break
        case .object(let members)?: evaluators = members
        case let other?:
            throw FlagdDefinitionsError("\(source): $.$evaluators: expected an object, found \(other.summary)")
        }
        var compiler = RuleCompiler(evaluators: evaluators)
        var result: [String: FlagdFlag] = [:]
        result.reserveCapacity(flags.count)
        for (key, written) in flags {
            result[key] = try flag(key, written, setMetadata: setMetadata, compiler: &compiler, source: source)
        }
        return result
    }

    private static func flag(
        _ key: String, _ written: JSONValue, setMetadata: [String: JSONValue], compiler: inout RuleCompiler,
        source: String
    ) throws(FlagdDefinitionsError) -> FlagdFlag {
        let at = "$.flags" + RuleCompiler.member(key)
        func fail(_ member: String, _ message: String) -> FlagdDefinitionsError {
            FlagdDefinitionsError("\(source): \(at)\(member): \(message)")
        }
        guard case .object(let members) = written else {
            throw fail("", "expected a flag object, found \(written.summary)")
        }
        for name in members.keys.sorted() where !flagMembers.contains(name) {
            throw fail(
                RuleCompiler.member(name),
                "unknown member (a flag has state, variants, defaultVariant, targeting and metadata)")
        }
        let enabled: Bool
        switch members["state"] {
        case .string("ENABLED")?: enabled = true
        case .string("DISABLED")?: enabled = false
        case nil: throw fail(".state", "missing (expected \"ENABLED\" or \"DISABLED\")")
        case let other?: throw fail(".state", "expected \"ENABLED\" or \"DISABLED\", found \(other.summary)")
        }
        guard case .object(let variants)? = members["variants"], !variants.isEmpty else {
            throw fail(".variants", "expected an object with at least one variant")
        }
        let defaultVariant: String?
        switch members["defaultVariant"] {
        case nil, .null?, .string("")?: defaultVariant = nil
        case .string(let name)?: defaultVariant = name
        case .bool(let flag)?: defaultVariant = flag ? "true" : "false"
        case let other?: throw fail(".defaultVariant", "expected a variant's name, found \(other.summary)")
        }
        let metadata = try Self.metadata(members["metadata"], at: at + ".metadata", source: source)
            .merging(setMetadata) { flagValue, _ in flagValue }
        let targeting: FlagdFlag.Targeting
        switch members["targeting"] {
        case nil, .null?:
            targeting = .none
        case .object(let rule)? where rule.isEmpty:
            targeting = .none
        case .object?:
            let rule = members["targeting"]!
            do throws(RuleProblem) {
                targeting = .rule(try compiler.compile(rule, at: at + ".targeting"))
            } catch {
                targeting = .broken("flag \(JSONText.quoted(key)): \(error.message)")
            }
        case let other?:
            targeting = .broken(
                "flag \(JSONText.quoted(key)): \(at).targeting: expected an object, found \(other.summary)")
        }
        return FlagdFlag(
            key: key, enabled: enabled, variants: variants, defaultVariant: defaultVariant, targeting: targeting,
            metadata: metadata, writtenTargeting: members["targeting"])
    }

    /// Metadata: an object of strings, numbers and booleans.
    private static func metadata(_ value: JSONValue?, at path: String, source: String)
        throws(FlagdDefinitionsError) -> [String: JSONValue]
    {
        switch value {
        case nil, .null?: return [:]
        case .object(let members)?:
            for name in members.keys.sorted() {
                switch members[name]! {
                case .string, .number, .bool: continue
                case let other:
                    throw FlagdDefinitionsError(
                        "\(source): \(path)\(RuleCompiler.member(name)): expected a string, number or boolean, "
                            + "found \(other.summary)")
                }
            }
            return members
        case let other?:
            throw FlagdDefinitionsError("\(source): \(path): expected an object, found \(other.summary)")
        }
    }

    private static func path(_ components: [JSONPathComponent]) -> String {
        components.reduce(into: "$") { text, component in
            switch component {
            case .member(let name): text += RuleCompiler.member(name)
            case .index(let index): text += "[\(index)]"
            }
        }
    }
}
