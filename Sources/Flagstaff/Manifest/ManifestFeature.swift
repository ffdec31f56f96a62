/// A flag built from a manifest entry: a static default that remembers the kind it was declared with, or, from a
/// manifest its app announced, the app's own value with where the app took it from (which a later announcement of
/// the same app may change: ``takeReport(_:from:)``).
final class ManifestFeature: AnyFlag, @unchecked Sendable {
    // @unchecked: adds to AnyFeature immutable state and the reported value, behind its lock.
    let declaredKind: FeatureKind
    let remoteKey: String?
    let enabledIn: [BuildTarget]?
    /// The default: the manifest's, or the app's value as it reported it with the source and the report's summary.
    private let value: AnnotatedMutex<(state: Bool, reported: (source: ResolutionSource, summary: String)?)>

    init(_ flag: RegistryManifest.Flag) {
        declaredKind = flag.kind
        remoteKey = flag.remoteKey
        enabledIn = flag.enabledIn
        value = AnnotatedMutex((flag.default, nil))
        super.init(
            key: flag.key, label: flag.label, description: flag.description, requiresRestart: flag.requiresRestart)
    }

    /// The flag with the value its app reported (a build-target flag without a reported value: its rule for the
    /// app's build target).
    init(_ flag: RegistryManifest.Flag, reportedBy app: RegistryManifest.AppReport) {
        declaredKind = flag.kind
        remoteKey = flag.remoteKey
        enabledIn = flag.enabledIn
        value = AnnotatedMutex(Self.reportedValue(flag, app))
        super.init(
            key: flag.key, label: flag.label, description: flag.description, requiresRestart: flag.requiresRestart)
    }

    /// Whether the value is one an app reported (then a later report of the same key replaces it).
    var isReported: Bool { value.withLock { $0.reported != nil } }

    /// Takes the value a later announcement reports for this key; `true` when the value or its source changed.
    func takeReport(_ app: RegistryManifest.AppReport, from flag: RegistryManifest.Flag) -> Bool {
        let new = Self.reportedValue(flag, app)
        return value.withLock { value in
            let changed = value.state != new.state || value.reported?.source != new.reported?.source
            value = new
            return changed
        }
    }

    private static func reportedValue(_ flag: RegistryManifest.Flag, _ app: RegistryManifest.AppReport) -> (
        state: Bool, reported: (source: ResolutionSource, summary: String)?
    ) {
        let value = app.values[flag.key]
        let state: Bool =
            if case .bool(let on)? = value?.value { on } else {
                flag.enabledIn.map { $0.contains(app.buildTarget) } ?? flag.default
            }
        let source: ResolutionSource =
            switch value?.source ?? (flag.kind == .buildTarget ? .buildTarget : .default) {
            case .buildTarget: .buildTarget(app.buildTarget)
            case .dynamic: .dynamic
            case .remote: .remote(provider: "the app", fetchedAt: app.reportedAt)
            case .default: .static
            }
        return (state, (source, app.summary))
    }

    override var kind: FeatureKind { declaredKind }
    override var computedDefault: Bool { value.withLock { $0.state } }
    override func resolveDefault() -> Resolution {
        let (state, reported) = value.withLock { ($0.state, $0.reported) }
        if let reported {
            return .single(state, from: reported.source, detail: "the app's own value (\(reported.summary))")
        }
        switch declaredKind {
        case .dynamic:
            return .single(state, from: .static, detail: "dynamic in the app; the manifest gives this default")
        case .remote:
            return .single(state, from: .static, detail: "remote in the app; no provider configured here")
        default:
            return .single(state, from: .static)
        }
    }
}
