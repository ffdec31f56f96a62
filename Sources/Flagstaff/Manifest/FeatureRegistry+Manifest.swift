/// Building registries from manifests and exporting them.
extension FeatureRegistry {
    /// Builds a registry from a manifest (for the standalone console and the CLI).
    ///
    /// Flags become `Feature`s with their default (build-target flags keep their rule). `makeFeature` lets a
    /// caller build other kinds, e.g. remote flags bound to a `RemoteConfig`; return `nil` to get the default.
    /// Dynamic flags cannot be described as data: they get their manifest `default` as a static value but keep
    /// `kind` `.dynamic` in the exported manifest.
    /// - Parameters:
    ///   - manifest: the manifest (already validated by `RegistryManifest.decode`/`load`).
    ///   - store: where overrides are persisted.
    ///   - options: registry options (`name` defaults to the manifest's name).
    ///   - makeFeature: builds a custom flag for a manifest entry, or returns `nil`.
    /// - Throws: `RegistryError` if keys collide.
    public convenience init(
        manifest: RegistryManifest, store: any OverrideStore = InMemoryOverrideStore(),
        options: RegistryOptions = RegistryOptions(),
        makeFeature: (RegistryManifest.Flag) -> AnyFeature? = { _ in nil }
    ) throws {
        self.init(name: options.name ?? manifest.name, store: store, options: options)
        func build(_ flag: RegistryManifest.Flag) -> AnyFeature {
            if let custom = makeFeature(flag) { return custom }
            if flag.kind == .buildTarget, let targets = flag.enabledIn {
                return Feature(
                    key: flag.key, label: flag.label, description: flag.description,
                    enabledIn: Set(targets), requiresRestart: flag.requiresRestart)
            }
            return ManifestFeature(flag)
        }
        func add(_ groups: [RegistryManifest.Group], parent: String?) throws {
            for group in groups {
                let path = parent.map { "\($0).\(group.key)" } ?? group.key
                let chain = self.group(chainFor: path.split(separator: ".").map(String.init))
                chain.last?.configureFromManifest(label: group.label, description: group.description)
                try registerUnpublished(group.flags.map(build), in: path)
                try add(group.groups, parent: path)
            }
        }
        func count(_ groups: [RegistryManifest.Group]) -> Int {
            groups.reduce(0) { $0 + $1.flags.count + count($1.groups) }
        }
        reserveCapacity(forAdditionalFlags: manifest.flags.count + count(manifest.groups))
        try registerUnpublished(manifest.flags.map(build), in: nil)
        try add(manifest.groups, parent: nil)
        finishSetUp()
        releaseFreedMemory()
    }

    /// Describes this registry as a manifest (flags, groups, defaults, kinds), e.g. to open it in the
    /// standalone console.
    public func manifest() -> RegistryManifest {
        func flag(_ feature: AnyFlag) -> RegistryManifest.Flag {
            let enabledIn = (feature as? Feature)?.enabledIn.map { targets in
                BuildTarget.allCases.filter(targets.contains)
            }
            // A remote key equal to the flag's key is the manifest's default: left out.
            let remoteKey =
                (feature as? ManifestFeature)?.remoteKey
                ?? (feature as? any RemoteKeyedFeature).flatMap { $0.remoteKey == feature.key ? nil : $0.remoteKey }
            return RegistryManifest.Flag(
                key: feature.key, label: feature.label, description: feature.description,
                default: feature.computedDefault, requiresRestart: feature.requiresRestart,
                kind: feature.kind, enabledIn: enabledIn, remoteKey: remoteKey)
        }
        func describe(_ group: FeatureGroup) -> RegistryManifest.Group {
            RegistryManifest.Group(
                key: group.key, label: group.label, description: group.description,
                flags: group.features.compactMap { $0 as? AnyFlag }.map(flag), groups: group.subgroups.map(describe))
        }
        return RegistryManifest(
            name: name, flags: rootFeatures.compactMap { $0 as? AnyFlag }.map(flag), groups: groups.map(describe))
    }
}

/// A flag built from a manifest entry: a static default that remembers the kind it was declared with.
final class ManifestFeature: AnyFlag, @unchecked Sendable {
    // @unchecked: adds only immutable state to AnyFeature.
    let defaultState: Bool
    let declaredKind: FeatureKind
    let remoteKey: String?

    init(_ flag: RegistryManifest.Flag) {
        defaultState = flag.default
        declaredKind = flag.kind
        remoteKey = flag.remoteKey
        super.init(
            key: flag.key, label: flag.label, description: flag.description, requiresRestart: flag.requiresRestart)
    }

    override var kind: FeatureKind { declaredKind }
    override var computedDefault: Bool { defaultState }
    override func resolveDefault() -> Resolution {
        switch declaredKind {
        case .dynamic:
            return .single(defaultState, from: .static, detail: "dynamic in the app; the manifest gives this default")
        case .remote:
            return .single(defaultState, from: .static, detail: "remote in the app; no provider configured here")
        default:
            return .single(defaultState, from: .static)
        }
    }
}
