/// Discovery of declared flags by reflection, and runtime registration.
extension AnyFeatureRegistry {
    /// Discovers the members declared in `root` and the groups nested in it.
    /// - Parameter rootName: the root's type name, the first component of declaration paths.
    func discoverDeclaredFeatures(in root: any FeatureGroup, rootName: String) {
        walk(root, groups: [], path: rootName)
    }

    /// Adds the members declared as stored properties of `declarations` (a struct, or a class with its
    /// superclasses' properties first), in declaration order, and walks nested groups.
    private func walk(_ declarations: any FeatureGroup, groups: [RegistryGroup], path: String) {
        var mirrors: [Mirror] = []
        var next: Mirror? = Mirror(reflecting: declarations)
        while let mirror = next {
            mirrors.append(mirror)
            next = mirror.superclassMirror
        }
        for mirror in mirrors.reversed() {
            for child in mirror.children {
                guard let label = child.label, !label.hasPrefix("$__lazy_storage") else { continue }
                let declaration = "\(path).\(label)"
                if let feature = child.value as? AnyFeature {
                    add(feature, propertyName: label, groups: groups, declaration: declaration)
                } else if let wrapper = child.value as? FeatureFlag {
                    let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                    add(wrapper.feature, propertyName: name, groups: groups, declaration: "\(path).\(name)")
                } else if let nested = child.value as? any FeatureGroup {
                    let group = RegistryGroup(options: nested.groupOptions)
                    group.assign(propertyName: label, parent: groups.last)
                    if let parent = groups.last { parent.append(subgroup: group) }
                    let path = group.keyPath.joined(separator: ".")
                    core.state.withLock { state in
                        if groups.isEmpty { state.groups.append(group) }
                        if state.groupsByPath[path] == nil { state.groupsByPath[path] = group }
                    }
                    walk(nested, groups: groups + [group], path: declaration)
                }
            }
        }
    }

    /// Adds a discovered flag; problems are recorded, never thrown.
    private func add(_ feature: AnyFeature, propertyName: String?, groups: [RegistryGroup], declaration: String) {
        let instance = ObjectIdentifier(feature)
        if let first = core.state.withLock({ $0.instances[instance] }) {
            core.state.withLock {
                $0.problems.append(.sameFeatureTwice(firstDeclaration: first, secondDeclaration: declaration))
            }
            return
        }
        if let other = feature.registry, other !== self {
            core.state.withLock {
                $0.problems.append(.declaredInAnotherRegistry(declaration: declaration, otherRegistry: other.name))
            }
            return
        }
        feature.assignIdentity(propertyName: propertyName, group: groups, registry: self, declarationPath: declaration)
        let key = feature.key
        core.state.withLock { state in
            state.instances[instance] = declaration
            if let problem = Self.keyProblem(key) {
                state.problems.append(.invalidKey(key, declaration: declaration, reason: problem))
            } else if let existing = state.member(forKey: key) {
                state.problems.append(
                    .duplicateKey(key, firstDeclaration: existing.declarationPath, secondDeclaration: declaration))
            } else {
                state.unpublished[key] = feature
            }
            feature.assignOrdinal(state.features.count)
            state.features.append(feature)
            if groups.isEmpty { state.rootFeatures.append(feature) }
        }
        groups.last?.append(feature: feature)
    }

    static func keyProblem(_ key: String) -> String? {
        if key.isEmpty { return "a key must not be empty" }
        // Control characters (general category Cc) are exactly U+0000–U+001F and U+007F–U+009F; comparing
        // values avoids a Unicode property lookup per character.
        if key.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "a key must not contain control characters"
        }
        return nil
    }

    /// Registers a flag at runtime (from a remote service or a manifest), optionally in a group.
    ///
    /// The flag must have an explicit key (`Feature(key: "…")`); it is used as is, without a group prefix.
    /// Groups in `groupPath` (dot-separated keys, e.g. `"unleash"` or `"remote.experiments"`) are created as
    /// needed, labelled by humanising their keys. The flag's launch value is recorded now and its override is
    /// loaded from the store. Registering many flags? Use ``register(_:in:)-(([AnyFeature],_))``: one call
    /// publishes one new lookup table.
    /// - Parameters:
    ///   - feature: the flag, with an explicit key.
    ///   - groupPath: the dot-separated keys of the group to put it in, or `nil` for the top level.
    /// - Throws: `RegistryError.invalidKey` (no or bad key), `RegistryError.duplicateKey`.
    public func register(_ feature: AnyFeature, in groupPath: String? = nil) throws {
        try register([feature], in: groupPath)
    }

    /// Registers several flags at runtime in one group (see ``register(_:in:)-((AnyFeature,_))``).
    ///
    /// All flags are checked before any is added: on an error (the first one in order is thrown) none of
    /// them is registered.
    /// - Parameters:
    ///   - features: the flags, each with an explicit key.
    ///   - groupPath: the dot-separated keys of the group to put them in, or `nil` for the top level.
    /// - Throws: `RegistryError.invalidKey` (no or bad key), `RegistryError.duplicateKey`.
    public func register(_ features: [AnyFeature], in groupPath: String? = nil) throws {
        try register([(features, groupPath)])
    }

    /// Registers several batches of flags, each in its group, and publishes them once. Every key is checked
    /// before any batch is added: an invalid key registers nothing; a duplicate key stops at its batch (the
    /// batches before it stay registered).
    /// - Throws: `RegistryError.invalidKey`, `RegistryError.duplicateKey`.
    func register(_ batches: [(members: [AnyFeature], groupPath: String?)]) throws {
        for member in batches.lazy.flatMap(\.members) {
            guard let key = member.explicitKey else {
                throw RegistryError.invalidKey(
                    member.label, reason: "a flag registered at runtime needs an explicit key: Feature(key: \"…\")")
            }
            if let problem = Self.keyProblem(key) { throw RegistryError.invalidKey(key, reason: problem) }
        }
        defer {
            core.publishMembers()
            let added = batches.flatMap(\.members).filter { $0.registry === self }
            applyLaunchOverrides(to: added, reportingUnknownKeys: false)
            for feature in added { feature.recordLaunchValue() }
            // A cache built from the registry's members (what `serve` serves) is stale now.
            if !added.isEmpty { core.generation.add(1, ordering: .releasing) }
            announceObservedChanges()
            if !added.isEmpty { announceBesideStore() }
        }
        for batch in batches { try registerUnpublished(batch.members, in: batch.groupPath) }
    }

    /// Adds flags without publishing a new lookup table or recording launch values (the caller does both).
    func registerUnpublished(_ features: [AnyFeature], in groupPath: String?) throws {
        let groupKeys = groupPath.map { $0.split(separator: ".").map(String.init) } ?? []
        let groupChain = group(chainFor: groupKeys)
        try mutate { _ in
            var keys: [String] = []
            keys.reserveCapacity(features.count)
            for feature in features {
                guard let key = feature.explicitKey else {
                    throw RegistryError.invalidKey(
                        feature.label, reason: "a flag registered at runtime needs an explicit key: Feature(key: \"…\")"
                    )
                }
                if let problem = Self.keyProblem(key) { throw RegistryError.invalidKey(key, reason: problem) }
                keys.append(key)
            }
            // One lock for the whole batch (a manifest registers its flags a group at a time).
            try core.state.withLock { state in
                state.unpublished.reserveCapacity(state.unpublished.count + features.count)
                var added = 0
                do {
                    for (feature, key) in zip(features, keys) {
                        if feature.registry != nil || state.instances[ObjectIdentifier(feature)] != nil {
                            throw RegistryError.duplicateKey(key, existingDeclaration: feature.declarationPath)
                        }
                        if let existing = state.member(forKey: key) {
                            throw RegistryError.duplicateKey(key, existingDeclaration: existing.declarationPath)
                        }
                        state.unpublished[key] = feature
                        added += 1
                    }
                } catch {
                    // Nothing of a refused batch stays registered.
                    for key in keys.prefix(added) { state.unpublished[key] = nil }
                    throw error
                }
                for (feature, key) in zip(features, keys) {
                    feature.assignIdentity(propertyName: nil, group: groupChain, registry: self, declarationPath: nil)
                    let stored = state.storedOverrides.isEmpty ? nil : state.storedOverrides[key]
                    if stored != nil || feature.isOverridden {
                        state.valueProblems[key] = feature.applyStored(stored).problem
                    }
                }
                for (offset, feature) in features.enumerated() { feature.assignOrdinal(state.features.count + offset) }
                state.features.append(contentsOf: features)
                if groupChain.isEmpty { state.rootFeatures.append(contentsOf: features) }
                core.search.invalidate()
            }
            groupChain.last?.append(features: features)
        }
    }

    /// Makes room for `count` more flags (a manifest knows its size; growing tables step by step rehashes).
    func reserveCapacity(forAdditionalFlags count: Int) {
        core.state.withLock { state in
            state.unpublished.reserveCapacity(state.unpublished.count + count)
            state.features.reserveCapacity(state.features.count + count)
        }
    }

    /// Finds or creates the groups for a key path.
    func group(chainFor keys: [String]) -> [RegistryGroup] {
        var chain: [RegistryGroup] = []
        var path = ""
        for key in keys {
            path = path.isEmpty ? key : path + "." + key
            if let existing = core.state.withLock({ $0.groupsByPath[path] }) {
                chain.append(existing)
                continue
            }
            let created = RegistryGroup()
            created.assign(propertyName: key, parent: chain.last)
            if let parent = chain.last { parent.append(subgroup: created) }
            core.state.withLock { state in
                if chain.isEmpty { state.groups.append(created) }
                state.groupsByPath[path] = created
            }
            chain.append(created)
        }
        return chain
    }
}

/// Launch values.
extension AnyFeatureRegistry {
    /// Puts the launch values of `members` in force (``LaunchOverrides/apply(to:of:reportingUnknownKeys:)``) and
    /// keeps the problems in ``launchOverrideProblems``.
    /// - Parameters:
    ///   - members: members just discovered or registered.
    ///   - reportingUnknownKeys: whether to report launch keys no member of the registry has (at creation).
    func applyLaunchOverrides(to members: [AnyFeature], reportingUnknownKeys: Bool) {
        let (problems, known) = options.launchOverrides.apply(
            to: members, of: self, reportingUnknownKeys: reportingUnknownKeys)
        guard !problems.isEmpty || !known.isEmpty else { return }
        core.state.withLock { state in
            state.launchOverrideProblems.removeAll { problem in known.contains { problem.hasPrefix($0) } }
            state.launchOverrideProblems.append(
                contentsOf: problems.filter { !state.launchOverrideProblems.contains($0) })
        }
    }

    /// Makes `values` the launch values of those members ("needs a restart" compares with them).
    ///
    /// An app's registry records its launch values itself, when it is created. A tool that opens the app's
    /// registry from outside (the `flagstaff` CLI and its console) knows the app's launch from the store's launch
    /// snapshot instead, and calls this once before reading, so that ``AnyFeature/isPendingRestart``,
    /// ``AnyFeature/launchStoredValue`` and ``featuresRequiringRestart`` mean what `flagstaff pending-restart`
    /// reports. Keys no member has, and values not valid for their member, are ignored.
    /// - Parameter values: launch values by key, as stored (`"on"`/`"off"` for flags).
    package func recordLaunchValues(_ values: [String: OverrideValue]) {
        for (key, value) in values { feature(forKey: key)?.recordLaunchValue(value) }
    }
}
