/// Building registries from manifests and exporting them.
extension AnyFeatureRegistry {
    /// Builds a registry from a manifest (for the standalone console and the CLI).
    ///
    /// Flags become `Feature`s with their default (build-target flags keep their rule). `makeFeature` lets a
    /// caller build other kinds, e.g. remote flags bound to a `RemoteConfig`; return `nil` to get the default.
    /// Dynamic flags cannot be described as data: they get their manifest `default` as a static value but keep
    /// `kind` `.dynamic` in the exported manifest.
    ///
    /// Settings become `Setting<Bool>`, `Setting<String>` (with `choices:` for choice settings), `Setting<Int>`,
    /// `Setting<Double>` (with `range:` when given) or `Setting<JSONSettingValue>`, listed after the flags of
    /// their group. A setting with a `remoteKey` is bound to that key of `settingSource` (e.g. the
    /// `RemoteConfig` built from the manifest's `remote` section); without a source it keeps the key, so the
    /// exported manifest still has it, and has no remote value (its explanation says so).
    /// - Parameters:
    ///   - manifest: the manifest (already validated by `RegistryManifest.decode`/`load`).
    ///   - store: where overrides are persisted.
    ///   - options: registry options (`name` defaults to the manifest's name).
    ///   - settingSource: where settings with a `remoteKey` take their remote value, if anywhere.
    ///   - makeFeature: builds a custom flag for a manifest entry, or returns `nil`.
    /// - Throws: `RegistryError` if keys collide; `ManifestError` for a setting whose default, range or choices
    ///   do not fit its type (possible only in a manifest not checked by `RegistryManifest.decode`).
    public convenience init(
        manifest: RegistryManifest, store: any OverrideStore = InMemoryOverrideStore(),
        options: RegistryOptions = RegistryOptions(), settingSource: (any SettingRemoteSource)? = nil,
        makeFeature: (RegistryManifest.Flag) -> AnyFeature? = { _ in nil }
    ) throws {
        self.init(name: options.name ?? manifest.name, store: store, options: options)
        let batches = try Self.memberBatches(
            of: manifest, settingSource: settingSource, makeFeature: makeFeature, declared: { _ in false })
        reserveCapacity(forAdditionalFlags: batches.reduce(0) { $0 + $1.members.count })
        for batch in batches {
            configureGroups(of: batch)
            try registerUnpublished(batch.members, in: batch.path)
        }
        finishSetUp()
        releaseFreedMemory()
    }

    /// The members of a manifest, a batch per group (the top level first, then each group before its subgroups),
    /// built as ``init(manifest:store:options:settingSource:makeFeature:)`` builds them; keys `declared` says are
    /// taken are left out.
    struct ManifestBatch {
        /// The group's dot-separated path, `nil` for the top level.
        let path: String?
        /// The label and description the manifest gives the group (`nil` for the top level).
        let group: (label: String?, description: String?)?
        let members: [AnyFeature]
        /// Keys of the manifest left out because `declared` said they are taken.
        let skipped: Int
    }

    static func memberBatches(
        of manifest: RegistryManifest, settingSource: (any SettingRemoteSource)?,
        makeFeature: (RegistryManifest.Flag) -> AnyFeature?, declared: (String) -> Bool
    ) throws -> [ManifestBatch] {
        // An announced manifest: what only the app can evaluate is shown as the app reported it.
        let settingSource = settingSource ?? manifest.app.map { _ in AppReportSource(manifest) }
        func build(_ flag: RegistryManifest.Flag) -> AnyFeature {
            if let app = manifest.app, flag.kind != .static {
                return ManifestFeature(flag, reportedBy: app)
            }
            if let custom = makeFeature(flag) { return custom }
            if flag.kind == .buildTarget, let targets = flag.enabledIn {
                return Feature(
                    key: flag.key, label: flag.label, description: flag.description,
                    enabledIn: Set(targets), requiresRestart: flag.requiresRestart)
            }
            return ManifestFeature(flag)
        }
        var batches: [ManifestBatch] = []
        func batch(
            _ flags: [RegistryManifest.Flag], _ settings: [RegistryManifest.Setting], path: String?,
            group: (label: String?, description: String?)?
        ) throws {
            let newFlags = flags.filter { !declared($0.key) }
            let newSettings = settings.filter { !declared($0.key) }
            let members = try newFlags.map(build) + newSettings.map { try makeSetting($0, source: settingSource) }
            batches.append(
                ManifestBatch(
                    path: path, group: group, members: members,
                    skipped: flags.count + settings.count - members.count))
        }
        func add(_ groups: [RegistryManifest.Group], parent: String?) throws {
            for group in groups {
                let path = parent.map { "\($0).\(group.key)" } ?? group.key
                try batch(group.flags, group.settings, path: path, group: (group.label, group.description))
                try add(group.groups, parent: path)
            }
        }
        try batch(manifest.flags, manifest.settings, path: nil, group: nil)
        try add(manifest.groups, parent: nil)
        return batches
    }

    /// Creates the groups of a batch's path and gives the last the manifest's label and description.
    func configureGroups(of batch: ManifestBatch) {
        guard let path = batch.path, let group = batch.group else { return }
        let chain = self.group(chainFor: path.split(separator: ".").map(String.init))
        chain.last?.configureFromManifest(label: group.label, description: group.description)
    }

    /// What ``adopt(_:)`` did with an app's announced manifest.
    package struct ManifestAdoption: Sendable, Equatable {
        /// Members the registry did not have, now registered.
        package var added: Int
        /// Members of the manifest whose key the registry declares already (its own declaration is kept).
        package var alreadyDeclared: Int
        /// Members an earlier announcement brought whose reported value this one changed.
        package var updated: Int = 0
    }

    /// Registers the members of an app's announced manifest that this registry lacks, in the manifest's groups,
    /// built as ``init(manifest:store:options:settingSource:makeFeature:)`` builds them (what only the app can
    /// evaluate is shown as the app reported it); a key the registry declares already keeps its declaration. For
    /// `flagstaff serve` and `console --serve`, which show and serve the registries linked apps send them.
    /// - Returns: how many members were added, and how many were declared already.
    /// - Throws: `RegistryError` for an invalid key, `ManifestError` for a setting whose default, range or choices
    ///   do not fit its type; nothing of the manifest is registered then.
    package func adopt(_ manifest: RegistryManifest) throws -> ManifestAdoption {
        let batches = try Self.memberBatches(
            of: manifest, settingSource: nil, makeFeature: { _ in nil },
            declared: { [self] in feature(forKey: $0) != nil })
        let added = batches.reduce(0) { $0 + $1.members.count }
        let skipped = batches.reduce(0) { $0 + $1.skipped }
        let updated = manifest.app.map { takeReport($0, of: manifest) } ?? []
        if added > 0 {
            for batch in batches where !batch.members.isEmpty { configureGroups(of: batch) }
            try register(batches.filter { !$0.members.isEmpty }.map { ($0.members, $0.path) })
        }
        notifyRemoteChange(keys: updated)
        return ManifestAdoption(added: added, alreadyDeclared: skipped, updated: updated.count)
    }

    /// Gives the members an earlier announcement brought the values this one reports (the app as it reads them
    /// now); members the registry declared itself are left alone.
    /// - Returns: the keys whose value or source changed.
    private func takeReport(_ app: RegistryManifest.AppReport, of manifest: RegistryManifest) -> Set<String> {
        var changed = Set<String>()
        var sources: [ObjectIdentifier: AppReportSource] = [:]
        var settingKeys: [(key: String, remoteKey: String, source: ObjectIdentifier)] = []
        for (flags, settings) in manifest.memberLists {
            for flag in flags {
                guard let member = feature(forKey: flag.key) as? ManifestFeature, member.isReported else { continue }
                if member.takeReport(app, from: flag) { changed.insert(flag.key) }
            }
            for setting in settings {
                guard let binding = (feature(forKey: setting.key) as? any RemoteBindableSetting)?.remoteBinding,
                    let source = binding.source as? AppReportSource
                else { continue }
                sources[ObjectIdentifier(source)] = source
                settingKeys.append((setting.key, binding.key, ObjectIdentifier(source)))
            }
        }
        let changedRemoteKeys = sources.mapValues { $0.take(manifest) }
        for setting in settingKeys where changedRemoteKeys[setting.source]?.contains(setting.remoteKey) == true {
            changed.insert(setting.key)
        }
        return changed
    }

    /// Describes this registry as a manifest (flags, settings, groups, defaults, kinds, ranges, choices,
    /// remote keys), e.g. to open it in the standalone console.
    ///
    /// Settings are listed after the flags of their group. A setting's `remoteKey` is the key of its remote
    /// binding, whatever the source. A range is described for number settings only.
    public func manifest() -> RegistryManifest {
        func flag(_ feature: AnyFlag) -> RegistryManifest.Flag {
            let enabledIn =
                (feature as? Feature)?.enabledIn.map { targets in BuildTarget.allCases.filter(targets.contains) }
                ?? (feature as? ManifestFeature)?.enabledIn
            // A remote key equal to the flag's key is the manifest's default: left out.
            let remoteKey =
                (feature as? ManifestFeature)?.remoteKey
                ?? (feature as? any RemoteKeyedFeature).flatMap { $0.remoteKey == feature.key ? nil : $0.remoteKey }
            return RegistryManifest.Flag(
                key: feature.key, label: feature.label, description: feature.description,
                default: feature.computedDefault, requiresRestart: feature.requiresRestart,
                kind: feature.kind, enabledIn: enabledIn, remoteKey: remoteKey)
        }
        func flags(_ members: [AnyFeature]) -> [RegistryManifest.Flag] {
            members.compactMap { $0 as? AnyFlag }.map(flag)
        }
        func settings(_ members: [AnyFeature]) -> [RegistryManifest.Setting] {
            members.filter { !($0 is AnyFlag) }.map(Self.describeSetting)
        }
        func describe(_ group: RegistryGroup) -> RegistryManifest.Group {
            let members = group.features
            return RegistryManifest.Group(
                key: group.key, label: group.label, description: group.description, flags: flags(members),
                settings: settings(members), groups: group.subgroups.map(describe))
        }
        let members = rootFeatures
        return RegistryManifest(
            name: name, flags: flags(members), settings: settings(members), groups: groups.map(describe))
    }

    /// A setting of a registry as a manifest entry.
    static func describeSetting(_ member: AnyFeature) -> RegistryManifest.Setting {
        let type = member.settingType
        func json(_ value: OverrideValue) -> JSONSettingValue {
            if type == .boolean, let state = value.overrideState { return .bool(state == .enabled) }
            return JSONSettingValue(value)
        }
        var range: ClosedRange<Double>?
        if type == .integer || type == .double, let bounds = member.valueRange,
            let lower = Double(bounds.lower.json), let upper = Double(bounds.upper.json), lower <= upper
        {
            range = lower...upper
        }
        return RegistryManifest.Setting(
            key: member.key, label: member.label, description: member.description, type: type,
            default: json(member.declaredDefault), range: range, requiresRestart: member.requiresRestart,
            remoteKey: (member as? any RemoteBindableSetting)?.remoteBinding?.key)
    }

    /// Builds the `Setting` a manifest entry describes.
    /// - Throws: `ManifestError` when the default, range or choices do not fit the type.
    static func makeSetting(_ entry: RegistryManifest.Setting, source: (any SettingRemoteSource)?) throws -> AnyFeature
    {
        if let (field, message) = entry.problem() {
            throw ManifestError(source: "manifest", path: nil, message: "setting '\(entry.key)': \(field): \(message)")
        }
        let binding = entry.remoteKey.map { key in
            SettingRemoteBinding(source: source ?? UnconfiguredSettingSource.shared, key: key)
        }
        let (key, label, description, restart) = (entry.key, entry.label, entry.description, entry.requiresRestart)
        switch (entry.type, entry.default) {
        case (.boolean, .bool(let value)):
            return Setting(
                default: value, key: key, label: label, description: description, requiresRestart: restart,
                remote: binding)
        case (.string, .string(let value)):
            return Setting(
                default: value, key: key, label: label, description: description, requiresRestart: restart,
                remote: binding)
        case (.choice(let names), .string(let value)):
            return Setting<String>(
                default: value, choices: names, key: key, label: label, description: description,
                requiresRestart: restart, remote: binding)
        case (.integer, .number(let value)):
            // `problem()` checked that the default and the bounds are whole numbers within ±2⁵³.
            guard let range = entry.range else {
                return Setting(
                    default: Int(value), key: key, label: label, description: description, requiresRestart: restart,
                    remote: binding)
            }
            return Setting(
                default: Int(value), range: Int(range.lowerBound)...Int(range.upperBound), key: key, label: label,
                description: description, requiresRestart: restart, remote: binding)
        case (.double, .number(let value)):
            guard let range = entry.range else {
                return Setting(
                    default: value, key: key, label: label, description: description, requiresRestart: restart,
                    remote: binding)
            }
            return Setting(
                default: value, range: range, key: key, label: label, description: description,
                requiresRestart: restart, remote: binding)
        default:
            return Setting(
                default: entry.default, key: key, label: label, description: description, requiresRestart: restart,
                remote: binding)
        }
    }
}

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
