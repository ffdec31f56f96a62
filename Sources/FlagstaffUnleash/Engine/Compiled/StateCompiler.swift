import Foundation

/// Builds a ``CompiledState`` from definitions: parses every percentage, constraint value, regex, CIDR and
/// semantic version once, so evaluation only compares.
///
/// Nothing here throws: a definition the engine cannot use (unknown operator, invalid regex, unknown custom
/// strategy, missing segment) compiles to something that never matches, as the specification requires, and is
/// reported in the state's warnings.
struct StateCompiler {
    let hostname: String
    private(set) var warnings: [String] = []

    init(hostname: String) { self.hostname = hostname }

    /// Compiles features (in `order`) against `segments`.
    mutating func compile(
        order: [String], definitions: [String: FeatureDefinition], segments: [Int: SegmentDefinition]
    ) -> CompiledState {
        var compiled: [String: CompiledFeature] = [:]
        compiled.reserveCapacity(order.count)
        for name in order {
            guard let definition = definitions[name] else { continue }
            compiled[name] = compile(feature: definition, segments: segments)
        }
        return CompiledState(
            features: compiled, order: order, definitions: definitions, segments: segments, warnings: warnings)
    }

    private mutating func compile(feature: FeatureDefinition, segments: [Int: SegmentDefinition]) -> CompiledFeature {
        let strategies = feature.strategies.enumerated().map { index, strategy in
            compile(strategy: strategy, at: "\(feature.name) strategy \(index)", feature: feature.name, segments: segments)
        }
        let stickiness = Stickiness(setting: feature.variants.first?.stickiness)
        let info = UnleashFeatureInfo(
            name: feature.name, enabled: feature.enabled, description: feature.description, type: feature.type,
            project: feature.project, stale: feature.stale ?? false, impressionData: feature.impressionData ?? false)
        return CompiledFeature(
            name: feature.name, enabled: feature.enabled, strategies: strategies,
            variants: VariantSelector(definitions: feature.variants, stickiness: stickiness, group: feature.name),
            dependencies: feature.dependencies.map {
                CompiledFeature.Dependency(feature: $0.feature, expectEnabled: $0.enabled, variants: Set($0.variants))
            },
            info: info)
    }

    private mutating func compile(
        strategy: StrategyDefinition, at location: String, feature: String, segments: [Int: SegmentDefinition]
    ) -> CompiledStrategy {
        var constraints = strategy.constraints.enumerated().map { index, constraint in
            compile(constraint: constraint, at: "\(location) constraint \(index)")
        }
        var rule = compileRule(strategy, at: location, feature: feature)
        for id in strategy.segments {
            if let segment = segments[id] {
                constraints += segment.constraints.enumerated().map { index, constraint in
                    compile(constraint: constraint, at: "segment \(id) constraint \(index)")
                }
            } else {
                warnings.append("\(location): segment \(id) does not exist; the strategy never matches")
                rule = .never
            }
        }
        let group = strategy.parameters["groupId"] ?? feature
        return CompiledStrategy(
            rule: rule, constraints: constraints,
            variants: VariantSelector(
                definitions: strategy.variants, stickiness: Stickiness(setting: strategy.parameters["stickiness"]),
                group: group))
    }

    private mutating func compileRule(_ strategy: StrategyDefinition, at location: String, feature: String) -> StrategyRule {
        let parameters = strategy.parameters
        func percentage(_ key: String) -> Int? {
            guard let text = parameters[key], let value = Int(text) else {
                warnings.append("\(location): parameter \(key) must be a whole number, found \(parameters[key]?.debugDescription ?? "nothing"); the strategy never matches")
                return nil
            }
            return value
        }
        switch strategy.name {
        case "default":
            return .always
        case "userWithId":
            let ids = (parameters["userIds"] ?? "").split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            return .userIds(Set(ids))
        case "flexibleRollout":
            guard let rollout = percentage("rollout") else { return .never }
            return .rollout(
                percentage: rollout, groupPrefix: MurmurHash3.prefix(forGroup: parameters["groupId"] ?? feature),
                stickiness: Stickiness(setting: parameters["stickiness"]))
        case "gradualRolloutUserId", "gradualRolloutSessionId":
            guard let value = percentage("percentage") else { return .never }
            guard let group = parameters["groupId"] else {
                warnings.append("\(location): \(strategy.name) needs a groupId parameter; the strategy never matches")
                return .never
            }
            let field: ContextField = strategy.name == "gradualRolloutUserId" ? .userId : .sessionId
            return .rollout(percentage: value, groupPrefix: MurmurHash3.prefix(forGroup: group), stickiness: .field(field))
        case "gradualRolloutRandom":
            guard let value = percentage("percentage") else { return .never }
            return .randomRollout(percentage: value)
        case "remoteAddress":
            let entries = (parameters["IPs"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return .remoteAddress(entries.compactMap { IPNetwork($0) })
        case "applicationHostname":
            let names = (parameters["hostNames"] ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return names.contains(hostname.lowercased()) ? .always : .never
        default:
            warnings.append("\(location): unknown strategy \(strategy.name.debugDescription); it never matches")
            return .never
        }
    }

    private mutating func compile(constraint: ConstraintDefinition, at location: String) -> CompiledConstraint {
        let field = ContextField(name: constraint.contextName)
        let ci = constraint.caseInsensitive
        let values = constraint.values
        let matcher: ConstraintMatcher
        switch constraint.operator {
        case "IN": matcher = .inList(Set(values))
        case "NOT_IN": matcher = .notInList(Set(values))
        case "STR_STARTS_WITH": matcher = .startsWith(ci ? values.map { $0.lowercased() } : values, caseInsensitive: ci)
        case "STR_ENDS_WITH": matcher = .endsWith(ci ? values.map { $0.lowercased() } : values, caseInsensitive: ci)
        case "STR_CONTAINS": matcher = .contains(ci ? values.map { $0.lowercased() } : values, caseInsensitive: ci)
        case "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE":
            if let text = constraint.value, let number = Double(text) {
                matcher = .number(Self.comparison(constraint.operator), number)
            } else {
                matcher = invalid("\(location): \(constraint.operator) needs a numeric value", constraint.value)
            }
        case "DATE_AFTER", "DATE_BEFORE":
            if let text = constraint.value, let date = RFC3339.parse(text) {
                matcher = constraint.operator == "DATE_AFTER" ? .dateAfter(date) : .dateBefore(date)
            } else {
                matcher = invalid("\(location): \(constraint.operator) needs an RFC 3339 date-time value", constraint.value)
            }
        case "SEMVER_EQ", "SEMVER_GT", "SEMVER_GTE", "SEMVER_LT", "SEMVER_LTE":
            if let text = constraint.value, let version = SemanticVersion(text) {
                matcher = .semver(Self.comparison(constraint.operator), version)
            } else {
                matcher = invalid("\(location): \(constraint.operator) needs a semantic version value", constraint.value)
            }
        case "REGEX":
            do throws(RegexPattern.Rejection) {
                guard let pattern = constraint.value else { throw RegexPattern.Rejection(description: "REGEX needs a value") }
                matcher = .regex(SharedRegex(try RegexPattern.compile(pattern, caseInsensitive: ci)))
            } catch {
                warnings.append("\(location): \(error); the constraint never matches")
                matcher = .invalid
            }
        case "IN_CIDR":
            matcher = .inCIDR(values.compactMap { IPNetwork($0.trimmingCharacters(in: .whitespaces)) })
        default:
            warnings.append("\(location): unknown operator \(constraint.operator.debugDescription); the constraint never matches")
            matcher = .invalid
        }
        return CompiledConstraint(field: field, matcher: matcher, inverted: constraint.inverted)
    }

    private mutating func invalid(_ message: String, _ value: String?) -> ConstraintMatcher {
        warnings.append("\(message), found \(value?.debugDescription ?? "nothing"); the constraint never matches")
        return .invalid
    }

    private static func comparison(_ operatorName: String) -> ConstraintMatcher.Comparison {
        if operatorName.hasSuffix("_GTE") { return .greaterOrEqual }
        if operatorName.hasSuffix("_LTE") { return .lessOrEqual }
        if operatorName.hasSuffix("_GT") { return .greater }
        if operatorName.hasSuffix("_LT") { return .less }
        return .equal
    }
}
