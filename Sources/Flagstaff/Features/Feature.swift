/// A flag with a static default, or a default that depends on the build target.
///
/// ```swift
/// struct AppFeatures: FeatureGroup {
///     let blueText = Feature()                                     // key "blueText", default off
///     let debugLogging = Feature(default: true)
///     let useTabBarNav = Feature(requiresRestart: true)
///     let legacyKey = Feature(key: "LEGACY_FLAG")                  // explicit key, no group prefix
///     let internalTools = Feature(enabledIn: [.debug, .internal])  // on only in those builds
/// }
/// ```
public final class Feature: AnyFlag, @unchecked Sendable {
    // @unchecked: adds only immutable state to AnyFeature.

    /// The static default (ignored when ``enabledIn`` is set).
    public let defaultState: Bool
    /// The build targets the flag is on in by default, or `nil` for a static default.
    public let enabledIn: Set<BuildTarget>?

    /// Creates a flag with a static default.
    /// - Parameters:
    ///   - key: an explicit store key (no group prefix); `nil` derives it from the property name.
    ///   - label: a display label; `nil` humanises the property name.
    ///   - description: a human description.
    ///   - default: the value when not overridden.
    ///   - requiresRestart: whether a change only takes effect after the app restarts.
    public init(
        key: String? = nil, label: String? = nil, description: String? = nil,
        default defaultState: Bool = false, requiresRestart: Bool = false
    ) {
        self.defaultState = defaultState
        self.enabledIn = nil
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
    }

    /// Creates a flag with a static default: the earlier spelling of ``init(key:label:description:default:requiresRestart:)``.
    @available(*, deprecated, renamed: "init(key:label:description:default:requiresRestart:)")
    public convenience init(
        key: String? = nil, label: String? = nil, description: String? = nil, defaultState: Bool,
        requiresRestart: Bool = false
    ) {
        self.init(
            key: key, label: label, description: description, default: defaultState, requiresRestart: requiresRestart)
    }

    /// Creates a flag that is on by default only in the given build targets (see `BuildTarget.current`).
    /// - Parameters:
    ///   - key: an explicit store key; `nil` derives it from the property name.
    ///   - label: a display label; `nil` humanises the property name.
    ///   - description: a human description.
    ///   - enabledIn: the build targets in which the flag defaults to on.
    ///   - requiresRestart: whether a change only takes effect after the app restarts.
    public init(
        key: String? = nil, label: String? = nil, description: String? = nil,
        enabledIn: Set<BuildTarget>, requiresRestart: Bool = false
    ) {
        self.defaultState = false
        self.enabledIn = enabledIn
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
    }

    /// `.buildTarget` when built with `enabledIn:`, else `.static`.
    public override var kind: FeatureKind { enabledIn == nil ? .static : .buildTarget }

    /// The default for the current build target.
    public override var computedDefault: Bool {
        if let enabledIn { return enabledIn.contains(BuildTarget.current) }
        return defaultState
    }

    /// The default with its source.
    public override func resolveDefault() -> Resolution {
        guard let enabledIn else { return .single(defaultState, from: .static) }
        let target = BuildTarget.current
        let names = BuildTarget.allCases.filter(enabledIn.contains).map(\.rawValue).joined(separator: ", ")
        return .single(
            enabledIn.contains(target), from: .buildTarget(target),
            detail: "on in \(names.isEmpty ? "no build" : names); this is \(target.rawValue)")
    }
}
