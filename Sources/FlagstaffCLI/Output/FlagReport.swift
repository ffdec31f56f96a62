import Flagstaff
import Foundation

/// A flag as `list --json` and `get --json` print it.
///
/// ```json
/// {"key": "list.infiniteScroll", "label": "Infinite Scroll", "group": ["List"], "description": "…",
///  "enabled": true, "override": "on", "source": "override", "kind": "static",
///  "requiresRestart": false, "pendingRestart": false}
/// ```
/// `get --json` adds `chain` (see ``Step``). Absent optional fields (`description`) are omitted.
struct FlagReport: Encodable {
    /// One source of the resolution chain.
    struct Step: Encodable {
        /// `test`, `override`, `remote`, `dynamic`, `buildTarget` or `static`.
        var source: String
        /// The value this source offered, or `null` when it offered none.
        var value: Bool?
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

        enum CodingKeys: String, CodingKey { case source, value, decided, detail, provider, fetchedAt, buildTarget }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(source, forKey: .source)
            try container.encode(value, forKey: .value)  // explicit null: "no value from this source"
            try container.encode(decided, forKey: .decided)
            try container.encodeIfPresent(detail, forKey: .detail)
            try container.encodeIfPresent(provider, forKey: .provider)
            try container.encodeIfPresent(fetchedAt, forKey: .fetchedAt)
            try container.encodeIfPresent(buildTarget, forKey: .buildTarget)
        }
    }

    var key: String
    var label: String
    var group: [String]
    var description: String?
    var enabled: Bool
    var override: String
    var source: String
    var kind: String
    var requiresRestart: Bool
    var pendingRestart: Bool
    var chain: [Step]?

    /// Describes a flag.
    /// - Parameters:
    ///   - feature: the flag.
    ///   - pendingRestart: whether it is pending a restart (see ``LaunchBaseline``).
    ///   - includeChain: whether to include the resolution chain.
    init(_ feature: AnyFeature, pendingRestart: Bool, includeChain: Bool) {
        let resolution = feature.resolution
        key = feature.key
        label = feature.label
        group = feature.groupPath
        description = feature.description
        enabled = resolution.value
        override = feature.override.storageWord
        source = SourceText.identifier(resolution.source)
        kind = feature.kind.rawValue
        requiresRestart = feature.requiresRestart
        self.pendingRestart = pendingRestart
        chain = includeChain ? Self.steps(resolution) : nil
    }

    static func steps(_ resolution: Resolution) -> [Step] {
        var decidedMarked = false
        return resolution.chain.map { step in
            let decided = !decidedMarked && step.source == resolution.source && step.value == resolution.value
            if decided { decidedMarked = true }
            var result = Step(
                source: SourceText.identifier(step.source), value: step.value, decided: decided, detail: step.detail)
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
