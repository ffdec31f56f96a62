import Flagstaff
import Foundation

/// A flag or typed setting as `list --json`, `get --json` and `fetch --json` print it.
///
/// ```json
/// {"key": "list.infiniteScroll", "label": "Infinite Scroll", "group": ["List"], "description": "…",
///  "type": "boolean", "value": true, "enabled": true, "override": "on", "source": "override",
///  "kind": "static", "requiresRestart": false, "pendingRestart": false}
/// {"key": "maxItems", "label": "Max Items", "group": [], "type": "integer", "value": 50, "default": 20,
///  "override": 50, "range": {"lower": 1, "upper": 100}, "source": "override", "kind": "static",
///  "requiresRestart": false, "pendingRestart": false}
/// ```
/// Flags keep `enabled` and `override` (`on`, `off` or `default`); settings have `default`, `override` (the
/// value, or `null` when there is none), and `range` or `choices` when declared. `get --json` adds `chain`
/// (see ``Step``). An override that expires adds `expiresAt` (ISO 8601), also on the chain's `override` step.
/// Absent optional fields (`description`, `expiresAt`) are omitted.
struct FlagReport: Encodable {
    /// One source of the resolution chain.
    struct Step: Encodable {
        /// `test`, `override`, `remote`, `dynamic`, `buildTarget` or `static`.
        var source: String
        /// The value this source offered, or `null` when it offered none.
        var value: ReportValue?
        /// Whether this source decided the effective value.
        var decided: Bool
        /// A human note, if any.
        var detail: String?
        /// For `remote`: the provider's name.
        var provider: String?
        /// For `remote`: when the value was fetched (ISO 8601), if known.
        var fetchedAt: Date?
        /// For `buildTarget`: the build target this binary was built for.
        var buildTarget: String?
        /// For `override`: when the override expires, if it does (ISO 8601).
        var expiresAt: Date?

        enum CodingKeys: String, CodingKey {
            case source, value, decided, detail, provider, fetchedAt, buildTarget, expiresAt
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(source, forKey: .source)
            try container.encode(value, forKey: .value)  // explicit null: "no value from this source"
            try container.encode(decided, forKey: .decided)
            try container.encodeIfPresent(detail, forKey: .detail)
            try container.encodeIfPresent(provider, forKey: .provider)
            try container.encodeIfPresent(fetchedAt, forKey: .fetchedAt)
            try container.encodeIfPresent(buildTarget, forKey: .buildTarget)
            try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        }
    }

    /// The bounds of a `range:` setting.
    struct Bounds: Encodable, Equatable {
        var lower: ReportValue
        var upper: ReportValue
    }

    var key: String
    var label: String
    var group: [String]
    var description: String?
    /// `boolean`, `string`, `integer`, `double`, `choice` or `json`.
    var type: String
    /// The effective value (`true`/`false` for flags).
    var value: ReportValue
    /// Flags only: the effective value.
    var enabled: Bool?
    /// Flags: `"on"`, `"off"` or `"default"`. Settings: the override's value, or `null`.
    var override: ReportValue
    /// Settings only: the declared default.
    var defaultValue: ReportValue?
    /// Settings declared with a range.
    var range: Bounds?
    /// Settings with choices (enums).
    var choices: [String]?
    var source: String
    var kind: String
    var requiresRestart: Bool
    var pendingRestart: Bool
    /// When the override expires, if it does (ISO 8601).
    var expiresAt: Date?
    var chain: [Step]?

    enum CodingKeys: String, CodingKey {
        case key, label, group, description, type, value, enabled, override
        case defaultValue = "default"
        case range, choices
        case source, kind, requiresRestart, pendingRestart, expiresAt, chain
    }

    /// Describes a flag or setting.
    /// - Parameters:
    ///   - feature: the flag or setting.
    ///   - pendingRestart: whether it is pending a restart (see ``LaunchBaseline``).
    ///   - includeChain: whether to include the resolution chain.
    init(_ feature: AnyFeature, pendingRestart: Bool, includeChain: Bool) {
        let resolution = feature.explanation
        key = feature.key
        label = feature.label
        group = feature.groupPath
        description = feature.description
        type = feature.settingType.name
        value = ReportValue(resolution.value, of: feature)
        if let flag = feature as? AnyFlag {
            enabled = ValueText.booleanState(resolution.value)
            override = .string(flag.untrackedOverride.storageWord)
        } else {
            override = feature.overrideValue.map { ReportValue($0, of: feature) } ?? .null
            defaultValue = ReportValue(feature.declaredDefault, of: feature)
            range = feature.valueRange.map {
                Bounds(lower: ReportValue($0.lower, of: feature), upper: ReportValue($0.upper, of: feature))
            }
            let names = feature.settingType.choices
            choices = names.isEmpty ? nil : names
        }
        source = SourceText.identifier(resolution.source)
        kind = feature.kind.rawValue
        requiresRestart = feature.requiresRestart
        self.pendingRestart = pendingRestart
        expiresAt = feature.overrideExpiry?.expiresAt
        chain = includeChain ? Self.steps(resolution, of: feature) : nil
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(label, forKey: .label)
        try container.encode(group, forKey: .group)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encode(type, forKey: .type)
        try container.encode(value, forKey: .value)
        try container.encodeIfPresent(enabled, forKey: .enabled)
        try container.encode(override, forKey: .override)  // explicit null: "no override"
        try container.encodeIfPresent(defaultValue, forKey: .defaultValue)
        try container.encodeIfPresent(range, forKey: .range)
        try container.encodeIfPresent(choices, forKey: .choices)
        try container.encode(source, forKey: .source)
        try container.encode(kind, forKey: .kind)
        try container.encode(requiresRestart, forKey: .requiresRestart)
        try container.encode(pendingRestart, forKey: .pendingRestart)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(chain, forKey: .chain)
    }

    /// Which step of the chain decided the value: the first whose source and value are the resolution's.
    static func decidingStep(_ resolution: ValueResolution) -> Int? {
        resolution.chain.firstIndex { $0.source == resolution.source && $0.value == resolution.value }
    }

    static func steps(_ resolution: ValueResolution, of feature: AnyFeature) -> [Step] {
        let decider = decidingStep(resolution)
        return resolution.chain.enumerated().map { index, step in
            var result = Step(
                source: SourceText.identifier(step.source), value: step.value.map { ReportValue($0, of: feature) },
                decided: index == decider, detail: step.detail, expiresAt: step.expiresAt)
            switch step.source {
            case .remote(let provider, let fetchedAt):
                result.provider = provider
                result.fetchedAt = fetchedAt
            case .buildTarget(let target):
                result.buildTarget = target.rawValue
            default:
                break
            }
            return result
        }
    }
}
