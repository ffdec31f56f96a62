import Flagstaff
import Foundation

/// A registry flag whose default comes from an Unleash toggle.
///
/// Resolution, highest first: a test override and a local (QA) override — both handled by the core — then the
/// toggle's state from the Unleash client (source `.remote(provider: "Unleash", fetchedAt:)`), then
/// ``defaultState`` (source `.static`) while the client has no answer. With the frontend API a toggle missing
/// from the client's toggles is off (the API leaves disabled toggles out); with local evaluation a toggle
/// unknown to the engine falls back to ``defaultState``.
///
/// ```swift
/// struct AppFeatures: FeatureGroup {
///     let newCheckout = UnleashFeature(toggleName: "checkout.new-flow", source: unleash)
/// }
/// unleash.attach(to: features)   // status, Ctrl-R, change notifications, unknown toggles under "Unleash"
/// ```
///
/// Reading ``AnyFeature/enabled`` counts an evaluation for Unleash metrics; explanations do not.
public final class UnleashFeature: AnyFlag, @unchecked Sendable {
    // @unchecked: every stored property is immutable and Sendable; the base class's state is protected there.

    /// The Unleash toggle's name.
    public let toggleName: String
    /// The value while the client has no answer for the toggle.
    public let defaultState: Bool
    /// The client the toggle is read from.
    public let source: any UnleashToggleSource

    /// Creates a flag backed by an Unleash toggle.
    /// - Parameters:
    ///   - key: An explicit store key; `nil` derives it from the property name. Flags registered at runtime need one.
    ///   - toggleName: The Unleash toggle's name.
    ///   - default: The value while the client has no answer.
    ///   - label: A display label; `nil` humanises the property name.
    ///   - description: A human description.
    ///   - requiresRestart: Whether a change only takes effect after the app restarts.
    ///   - source: The Unleash client.
    public init(
        key: String? = nil, toggleName: String, default defaultState: Bool = false, label: String? = nil,
        description: String? = nil, requiresRestart: Bool = false, source: any UnleashToggleSource
    ) {
        self.toggleName = toggleName
        self.defaultState = defaultState
        self.source = source
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
    }

    /// Creates a flag backed by an Unleash toggle: the earlier spelling of
    /// ``init(key:toggleName:default:label:description:requiresRestart:source:)``.
    @available(*, deprecated, renamed: "init(key:toggleName:default:label:description:requiresRestart:source:)")
    public convenience init(
        key: String? = nil, toggleName: String, defaultState: Bool, label: String? = nil, description: String? = nil,
        requiresRestart: Bool = false, source: any UnleashToggleSource
    ) {
        self.init(
            key: key, toggleName: toggleName, default: defaultState, label: label, description: description,
            requiresRestart: requiresRestart, source: source)
    }

    /// `.remote`: the default comes from a remote service.
    public override var kind: FeatureKind { .remote }

    /// The toggle's state, else ``defaultState``; counts an evaluation for metrics.
    public override var computedDefault: Bool {
        source.enabledState(ofToggle: toggleName, countingMetrics: true) ?? defaultState
    }

    /// The default with its source: `.remote(provider: "Unleash", fetchedAt:)` when the client has an answer,
    /// else `.static`; the chain lists both.
    public override func resolveDefault() -> Resolution {
        let staticStep = ResolutionStep(source: .static, value: defaultState, detail: "static default")
        let remote = ResolutionSource.remote(provider: source.name, fetchedAt: source.lastFetchTime)
        guard let value = source.enabledState(ofToggle: toggleName, countingMetrics: false) else {
            let step = ResolutionStep(source: remote, value: nil, detail: "no answer for toggle \"\(toggleName)\" yet")
            return Resolution(value: defaultState, source: .static, chain: [step, staticStep])
        }
        let known = source.toggleNames.contains(toggleName)
        let detail =
            known
            ? "toggle \"\(toggleName)\" is \(value ? "on" : "off")"
            : "toggle \"\(toggleName)\" not in the answer (off)"
        return Resolution(
            value: value, source: remote,
            chain: [ResolutionStep(source: remote, value: value, detail: detail), staticStep])
    }
}
