import Foundation

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

/// The app announces itself: its manifest, with what only it can evaluate, beside its file store.
extension AnyFeatureRegistry {
    /// This registry's manifest (``manifest()``) with the app's report (``RegistryManifest/AppReport``): the build
    /// target it runs as, and the value it reads, below any QA override, of each member only it can evaluate (a
    /// build-target rule, a dynamic closure, a remote value; a remote member without a value yet reports its
    /// default, with source `default`).
    /// - Parameter time: when the report is made.
    package func announcedManifest(at time: Date = Date()) -> RegistryManifest {
        var values: [String: RegistryManifest.ReportedValue] = [:]
        for member in allFeatures {
            let remoteBound = (member as? any RemoteBindableSetting)?.remoteBinding != nil
            guard member.kind != .static || remoteBound else { continue }
            let own = member.explanation.chain.first { step in
                switch step.source {
                case .testOverride, .launch, .link, .override: false
                default: step.value != nil
                }
            }
            let source: RegistryManifest.ReportedSource =
                switch own?.source {
                case .buildTarget?: .buildTarget
                case .dynamic?: .dynamic
                case .remote?: .remote
                default: .default
                }
            let value = member.valueWithoutOverride
            values[member.key] = RegistryManifest.ReportedValue(
                value: member is AnyFlag ? .bool(value == .on) : JSONSettingValue(value), source: source)
        }
        var manifest = manifest()
        manifest.app = RegistryManifest.AppReport(buildTarget: .current, reportedAt: time, values: values)
        return manifest
    }

    /// Writes ``announcedManifest(at:)`` beside a file store (``StoreLayout/announcedManifest``) when
    /// it differs from what is there but for the time, atomically and never through a link (docs/files.md). Called
    /// when the registry is made and after members are registered at run time; the work runs on one background
    /// queue, in the order asked, so that making a registry never waits for it (100,000 members: 0.15–0.5 s, see
    /// `flagstaff-bench manifest`). A failure is said once on standard error: the app works on, and tools given the
    /// store say that no manifest was announced.
    func announceBesideStore() {
        guard options.announcesManifest, fileStore != nil else { return }
        Self.announcements.async { [weak self] in self?.writeAnnouncement() }
    }

    /// Waits until the announcements asked for so far are written (tests, and tools that read them at once).
    package func waitForAnnouncement() {
        Self.announcements.sync {}
    }

    /// Where announcements run: one at a time, off the thread that made or grew a registry.
    private static let announcements = DispatchQueue(label: "flagstaff.announce", qos: .utility)

    private func writeAnnouncement() {
        guard let store = fileStore else { return }
        do {
            let url = try store.layout().announcedManifest
            var manifest = announcedManifest(at: options.wallClock.date)
            // One of Flagstaff's own files: read never through a link, and a FIFO or device is refused, not waited
            // on (docs/files.md). Anything unreadable counts as absent; the write then says what is wrong.
            if let data = try? BoundedFileReader.read(url.path, limit: 256 << 20, followingLinks: false),
                let previous = try? RegistryManifest.decode(data, source: url.path),
                let time = previous.app?.reportedAt
            {
                manifest.app?.reportedAt = time
                if previous == manifest { return }
                manifest.app?.reportedAt = options.wallClock.date
            }
            let data = try manifest.announcementJSON()
            do throws(OwnFile.Failure) {
                try OwnFile.writeAtomically(data, to: url.path, ownerOf: store.url.path)
            } catch {
                throw error
            }
        } catch {
            ProcessNotes.sayOnce(["cannot announce the registry's manifest beside its store: \(error)"])
        }
    }
}
