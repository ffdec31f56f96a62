import Foundation

/// Builds a ``CompiledState`` from definitions: parses every percentage, constraint value, regex, CIDR and
/// semantic version once, so evaluation only compares.
///
/// Nothing here throws. Definitions the engine cannot use are reported in the state's warnings and handled as
/// Unleash's reference engine (yggdrasil) handles them: an unknown custom strategy, a missing segment or a
/// non-integer percentage makes that strategy never match; an invalid regular expression makes that constraint
/// false; an unknown operator, an ordinal value of no known shape, a string operator without values, a percentage
/// above 100 or a double quote in a group id or context name makes the whole feature off.
struct StateCompiler {
    let hostname: String
    private(set) var warnings: [String] = []
    /// Set while compiling a feature when part of it cannot be compiled at all; the reference engine then treats
    /// the whole feature as off, and so does this one.
    private var featureIsUnusable = false
    private var unusableReason: String?

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
        featureIsUnusable = false
        unusableReason = nil
        let strategies = feature.strategies.enumerated().map { index, strategy in
            compile(
                strategy: strategy, at: "\(feature.name) strategy \(index)", feature: feature.name, segments: segments)
        }
        let stickiness = Stickiness(setting: feature.variants.first?.stickiness)
        let info = UnleashFeatureInfo(
            name: feature.name, enabled: feature.enabled, description: feature.description, type: feature.type,
            project: feature.project, stale: feature.stale ?? false, impressionData: feature.impressionData ?? false)
        return CompiledFeature(
            name: feature.name, enabled: feature.enabled && !featureIsUnusable, strategies: strategies,
            variants: VariantSelector(definitions: feature.variants, stickiness: stickiness, group: feature.name),
            dependencies: feature.dependencies.map {
                CompiledFeature.Dependency(feature: $0.feature, expectEnabled: $0.enabled, variants: Set($0.variants))
            },
            info: info, unusableReason: unusableReason)
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
        if group.contains("\"") {
            markUnusable("\(location): groupId \(group.debugDescription) contains a double quote")
        }
        return CompiledStrategy(
            name: strategy.name, rule: rule, constraints: constraints,
            variants: VariantSelector(
                definitions: strategy.variants, stickiness: Stickiness(setting: strategy.parameters["stickiness"]),
                group: group, honourOverrides: false))
    }

    private mutating func compileRule(_ strategy: StrategyDefinition, at location: String, feature: String)
        -> StrategyRule
    {
        let parameters = strategy.parameters
        func percentage(_ key: String) -> Int? {
            guard let text = parameters[key], let value = Int(text) else {
                warnings.append(
                    "\(location): parameter \(key) must be a whole number, found \(parameters[key]?.debugDescription ?? "nothing"); the strategy never matches"
                )
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
            if rollout > 100 { markUnusable("\(location): rollout \(rollout) is above 100") }
            return .rollout(
                percentage: rollout, groupPrefix: MurmurHash3.prefix(forGroup: parameters["groupId"] ?? feature),
                stickiness: Stickiness(setting: parameters["stickiness"]))
        case "gradualRolloutUserId", "gradualRolloutSessionId":
            guard let value = percentage("percentage") else { return .never }
            if value > 100 { markUnusable("\(location): percentage \(value) is above 100") }
            guard let group = parameters["groupId"] else {
                warnings.append("\(location): \(strategy.name) needs a groupId parameter; the strategy never matches")
                return .never
            }
            let field: ContextField = strategy.name == "gradualRolloutUserId" ? .userId : .sessionId
            return .rollout(
                percentage: value, groupPrefix: MurmurHash3.prefix(forGroup: group), stickiness: .field(field))
        case "gradualRolloutRandom":
            guard let value = percentage("percentage") else { return .never }
            return .randomRollout(percentage: value)
        case "remoteAddress":
            let entries = (parameters["IPs"] ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
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
        if constraint.contextName.contains("\"") {
            markUnusable("\(location): context name \(constraint.contextName.debugDescription) contains a double quote")
        }
        let ci = constraint.caseInsensitive
        let values = constraint.values
        let operatorName = constraint.operator
        let matcher: ConstraintMatcher
        switch operatorName {
        case "IN": matcher = .inList(StringSet(values))
        case "NOT_IN": matcher = .notInList(StringSet(values))
        case "STR_STARTS_WITH", "STR_ENDS_WITH", "STR_CONTAINS":
            if values.isEmpty { markUnusable("\(location): \(operatorName) has no values") }
            let prepared = (ci ? values.map { $0.lowercased() } : values).map { Array($0.utf8) }
            switch operatorName {
            case "STR_STARTS_WITH": matcher = .startsWith(prepared, caseInsensitive: ci)
            case "STR_ENDS_WITH": matcher = .endsWith(prepared, caseInsensitive: ci)
            default: matcher = .contains(prepared, caseInsensitive: ci)
            }
        case "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE",
            "SEMVER_EQ", "SEMVER_GT", "SEMVER_GTE", "SEMVER_LT", "SEMVER_LTE":
            let comparison = Self.comparison(operatorName)
            let text = constraint.value ?? ""
            if operatorName.hasPrefix("SEMVER_") && text.hasPrefix("v") {
                warnings.append(
                    "\(location): \(operatorName) value \(text.debugDescription) has a leading v; the constraint never matches"
                )
                matcher = .never
            } else {
                switch OrdinalValue(text) {
                case .date(let date): matcher = .date(comparison, date)
                case .semver(let version): matcher = .semver(comparison, version)
                case .number(let number): matcher = .number(comparison, number)
                case nil:
                    markUnusable(
                        "\(location): \(operatorName) value \(text.debugDescription) is not a number, date-time or semantic version"
                    )
                    matcher = .never
                }
            }
        case "REGEX":
            do throws(RegexPattern.Rejection) {
                guard let pattern = constraint.value ?? values.first else {
                    throw RegexPattern.Rejection(description: "REGEX has no pattern")
                }
                matcher = .regex(try RegexPattern.compile(pattern, caseInsensitive: ci))
            } catch {
                warnings.append("\(location): \(error); the constraint is false")
                matcher = .alwaysFalse
            }
        case "IN_CIDR":
            matcher = .inCIDR(values.compactMap { IPNetwork($0.trimmingCharacters(in: .whitespaces)) })
        default:
            markUnusable("\(location): unknown operator \(operatorName.debugDescription)")
            matcher = .never
        }
        return CompiledConstraint(field: field, matcher: matcher, inverted: constraint.inverted)
    }

    private mutating func markUnusable(_ reason: String) {
        warnings.append("\(reason); the whole feature is off")
        featureIsUnusable = true
        if unusableReason == nil { unusableReason = reason }
    }

    private static func comparison(_ operatorName: String) -> ConstraintMatcher.Comparison {
        if operatorName == "DATE_AFTER" { return .greater }
        if operatorName == "DATE_BEFORE" { return .less }
        if operatorName.hasSuffix("_GTE") { return .greaterOrEqual }
        if operatorName.hasSuffix("_LTE") { return .lessOrEqual }
        if operatorName.hasSuffix("_GT") { return .greater }
        if operatorName.hasSuffix("_LT") { return .less }
        return .equal
    }
}
