import Flagstaff
import Foundation

/// A registry flag whose default comes from a boolean flagd flag, evaluated in-process by a ``FlagdSource`` for
/// its evaluation context.
///
/// Resolution, highest first: a test override, a launch override and a local (QA) override — all handled by the
/// core — then the flag's evaluation (source `.remote(provider: "flagd", …)`, the detail naming the variant and
/// the reason), then ``defaultState`` (source `.static`) while the evaluation gives no value (the flag is
/// `DISABLED`, has no default variant, fails, or the definitions lack it).
///
/// ```swift
/// struct AppFeatures: FeatureGroup {
///     let newCheckout = FlagdFeature(flagKey: "new-checkout", source: flagd)
/// }
/// flagd.attach(to: features)   // the other flags under "flagd", change notifications
/// ```
public final class FlagdFeature: AnyFlag, @unchecked Sendable {
    // @unchecked: every stored property is immutable and Sendable; the base class's state is protected there.

    /// The flagd flag's key.
    public let flagKey: String
    /// The value while the evaluation gives none.
    public let defaultState: Bool
    /// The source that evaluates the flag.
    public let source: FlagdSource

    /// Creates a flag backed by a flagd flag.
    /// - Parameters:
    ///   - key: an explicit store key; `nil` derives it from the property name. Flags registered at runtime need one.
    ///   - flagKey: the flagd flag's key.
    ///   - default: the value while the evaluation gives none.
    ///   - label: a display label; `nil` humanises the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after the app restarts.
    ///   - source: the flagd source.
    public init(
        key: String? = nil, flagKey: String, default defaultState: Bool = false, label: String? = nil,
        description: String? = nil, requiresRestart: Bool = false, source: FlagdSource
    ) {
        self.flagKey = flagKey
        self.defaultState = defaultState
        self.source = source
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
    }

    /// `.remote`: the default comes from flagd's definitions.
    public override var kind: FeatureKind { .remote }

    /// The evaluation's value when it is a boolean, else ``defaultState``.
    public override var computedDefault: Bool {
        if case .bool(let value)? = source.evaluation(of: flagKey)?.value { return value }
        return defaultState
    }

    /// The default with its source: `.remote(provider: "flagd", …)` with the variant and the reason when the
    /// evaluation gives a boolean, else `.static`; the chain lists both.
    public override func resolveDefault() -> Resolution {
        let staticStep = ResolutionStep(source: .static, value: defaultState, detail: "static default")
        let remote = ResolutionSource.remote(provider: source.name, fetchedAt: source.status.lastFetch)
        guard let evaluation = source.evaluation(of: flagKey) else {
            let step = ResolutionStep(
                source: remote, value: nil, detail: "flag \(JSONText.quoted(flagKey)) is not in the definitions")
            return Resolution(value: defaultState, source: .static, chain: [step, staticStep])
        }
        let detail = FlagdSource.detail(of: evaluation)
        guard case .bool(let value)? = evaluation.value else {
            let note = evaluation.value == nil ? detail : "\(detail); not a boolean"
            let step = ResolutionStep(source: remote, value: nil, detail: note)
            return Resolution(value: defaultState, source: .static, chain: [step, staticStep])
        }
        return Resolution(
            value: value, source: remote,
            chain: [ResolutionStep(source: remote, value: value, detail: detail), staticStep])
    }
}
