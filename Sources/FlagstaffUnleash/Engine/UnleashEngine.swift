import Flagstaff
import Foundation

/// Evaluates Unleash feature flags locally, from the state `/api/client/features` serves, the way Unleash's
/// server-side SDKs do.
///
/// Give it a state with ``takeState(_:)`` (a full client-features body, or delta-API events), then ask
/// ``isEnabled(_:context:)`` and ``variant(_:context:)`` as often as you like. The engine implements the Unleash
/// client specification: the standard strategies, every constraint operator, segments, strategy and feature
/// variants with overrides and stickiness, dependent features, and MurmurHash3 bucketing.
///
/// Everything that can be prepared is prepared when the state is taken: percentages, constraint values, regular
/// expressions, CIDR ranges and semantic versions are parsed once, so an evaluation only compares and hashes.
///
/// Thread safety: all methods may be called from any thread at once, and evaluations take no lock. Taking a new
/// state never blocks an evaluation, which sees either the old or the new state, never a mix. Concurrent
/// `takeState` calls are applied one after the other.
public final class UnleashEngine: Sendable {
    /// The compiled state: read without a lock, replaced by one writer at a time (which also makes a delta apply
    /// to the latest state). See ``PublishedReference`` for how old states are reclaimed.
    private let current = PublishedReference(CompiledState.empty)
    private let hostname: String

    /// Creates an engine with no features (every flag is off until a state is taken).
    /// - Parameter hostname: The host name the `applicationHostname` strategy compares against; `nil` means this
    ///   machine's name (`gethostname`).
    public init(hostname: String? = nil) {
        self.hostname = hostname ?? Hostname.current()
    }

    /// Replaces or updates the state.
    ///
    /// `data` is either a `/api/client/features` body (`{"version":2,"features":[…],"segments":[…]}`), which
    /// replaces the whole state, or a delta body (`{"events":[…]}`) whose events (`hydration`, `feature-updated`,
    /// `feature-removed`, `segment-updated`, `segment-removed`) are applied in order to the current state. Unknown
    /// event types are ignored. Definitions the engine cannot use (an unknown operator, an invalid regex, a custom
    /// strategy) are not errors: they never match, as the specification requires, and are listed in ``warnings``.
    ///
    /// On error the current state is kept unchanged.
    /// - Parameter data: UTF-8 JSON.
    /// - Throws: ``UnleashStateError`` naming the JSON path of the first invalid value.
    public func takeState(_ data: Data) throws {
        take(try Self.read(data, keepingJSON: false))
    }

    /// Reads a state body in one pass (``JSONReader``), straight into the definitions.
    /// - Parameters:
    ///   - data: the body.
    ///   - keepingJSON: whether each feature and segment keeps its JSON text (the server-side client's model).
    /// - Throws: ``UnleashStateError`` naming the path of the first invalid value, or the line and column of a
    ///   syntax error.
    static func read(_ data: Data, keepingJSON: Bool) throws(UnleashStateError) -> StateDocument {
        do throws(ReadFailure) {
            return try JSONReader.withText(data) { reader throws(ReadFailure) in
                try reader.readUnleashState(keepingJSON: keepingJSON)
            }
        } catch {
            throw UnleashStateError(error)
        }
    }

    /// Applies a state read with ``read(_:keepingJSON:)``.
    func take(_ document: StateDocument) {
        let hostname = self.hostname
        current.update { base in
            var order: [String]
            var definitions: [String: FeatureDefinition]
            var segments: [Int: SegmentDefinition]
            switch document {
            case .full(let features, let newSegments):
                (order, definitions, segments) = ([], [:], [:])
                Self.insert(features, into: &order, &definitions)
                for segment in newSegments { segments[segment.id] = segment }
            case .delta(let events):
                (order, definitions, segments) = (base.order, base.definitions, base.segments)
                for event in events {
                    Self.apply(event, order: &order, definitions: &definitions, segments: &segments)
                }
            }
            var compiler = StateCompiler(hostname: hostname)
            return (compiler.compile(order: order, definitions: definitions, segments: segments), ())
        }
    }

    private static func insert(
        _ features: [FeatureDefinition], into order: inout [String], _ definitions: inout [String: FeatureDefinition]
    ) {
        for feature in features {
            if definitions.updateValue(feature, forKey: feature.name) == nil { order.append(feature.name) }
        }
    }

    private static func apply(
        _ event: DeltaEvent, order: inout [String], definitions: inout [String: FeatureDefinition],
        segments: inout [Int: SegmentDefinition]
    ) {
        switch event {
        case .hydration(let features, let newSegments):
            order = []
            definitions = [:]
            insert(features, into: &order, &definitions)
            segments = [:]
            for segment in newSegments { segments[segment.id] = segment }
        case .featureUpdated(let feature):
            insert([feature], into: &order, &definitions)
        case .featureRemoved(let name):
            if definitions.removeValue(forKey: name) != nil { order.removeAll { $0 == name } }
        case .segmentUpdated(let segment):
            segments[segment.id] = segment
        case .segmentRemoved(let id):
            segments[id] = nil
        case .unknown:
            break
        }
    }

    /// Whether `flag` is on for `context`.
    ///
    /// Unknown flags are off. Cost: one dictionary lookup plus the flag's strategies; no allocation for the
    /// standard strategies and operators.
    /// - Parameters:
    ///   - flag: The feature's name.
    ///   - context: Who the flag is evaluated for.
    /// - Returns: `true` when the flag is on.
    public func isEnabled(_ flag: String, context: UnleashContext) -> Bool {
        current.read { $0.isEnabled(flag, context: context) }
    }

    /// The variant `flag` resolves to for `context`.
    ///
    /// Unknown and disabled flags give the `disabled` variant with `featureEnabled == false`; an enabled flag
    /// without variants gives `disabled` with `featureEnabled == true`.
    /// - Parameters:
    ///   - flag: The feature's name.
    ///   - context: Who the flag is evaluated for.
    /// - Returns: The variant.
    public func variant(_ flag: String, context: UnleashContext) -> UnleashVariant {
        current.read { $0.variant(flag, context: context) }
    }

    /// Evaluates `flag` once: on or off, the variant, and a one-line reason.
    ///
    /// Both answers come from the same pass, so they agree even for random rollouts. Costs about as much as
    /// ``isEnabled(_:context:)`` and ``variant(_:context:)`` together; meant for tools (`flagstaff unleash eval`) and
    /// debugging rather than hot paths.
    /// - Parameters:
    ///   - flag: The feature's name.
    ///   - context: Who the flag is evaluated for.
    /// - Returns: The evaluation.
    public func evaluate(_ flag: String, context: UnleashContext) -> UnleashEvaluation {
        current.read { $0.evaluate(flag, context: context) }
    }

    /// The names of all features in the state, in the order the server sent them.
    public var featureNames: [String] { current.read { $0.order } }

    /// What the state says about every feature, in the order the server sent them.
    public var features: [UnleashFeatureInfo] {
        current.read { state in state.order.compactMap { state.features[$0]?.info } }
    }

    /// What the state says about one feature.
    /// - Parameter name: The feature's name.
    /// - Returns: The feature's information, or `nil` if the state does not contain it.
    public func feature(named name: String) -> UnleashFeatureInfo? {
        current.read { $0.features[name]?.info }
    }

    /// Whether a feature asks for impression events (`impressionData`); `false` for unknown features. One lookup,
    /// no allocation.
    package func wantsImpressions(_ name: String) -> Bool {
        current.read { $0.features[name]?.info.impressionData ?? false }
    }

    /// Definitions in the current state that can never match (unknown operators or strategies, invalid regexes or
    /// values, missing segments), one human-readable line each.
    public var warnings: [String] { current.read { $0.warnings } }
}
