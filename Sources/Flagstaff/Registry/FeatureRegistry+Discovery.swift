/// Discovery of declared flags by reflection, and runtime registration.
extension FeatureRegistry {
    func discoverDeclaredFeatures(rootName: String) {
        walk(object: self, stopAt: FeatureRegistry.self, groups: [], path: rootName)
    }

    private func walk(object: AnyObject, stopAt base: AnyClass, groups: [FeatureGroup], path: String) {
        var mirrors: [Mirror] = []
        var next: Mirror? = Mirror(reflecting: object)
        while let mirror = next, ObjectIdentifier(mirror.subjectType) != ObjectIdentifier(base) {
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
                } else if let group = child.value as? FeatureGroup {
                    group.assign(propertyName: label, parent: groups.last)
                    if let parent = groups.last { parent.append(subgroup: group) }
                    let path = group.keyPath.joined(separator: ".")
                    core.state.withLock { state in
                        if groups.isEmpty { state.groups.append(group) }
                        if state.groupsByPath[path] == nil { state.groupsByPath[path] = group }
                    }
                    walk(object: group, stopAt: FeatureGroup.self, groups: groups + [group], path: declaration)
                }
            }
        }
    }

    /// Adds a discovered flag; problems are recorded, never thrown.
    private func add(_ feature: AnyFeature, propertyName: String?, groups: [FeatureGroup], declaration: String) {
        let instance = ObjectIdentifier(feature)
        if let first = core.state.withLock({ $0.instances[instance] }) {
            core.state.withLock { $0.problems.append(.sameFeatureTwice(firstDeclaration: first, secondDeclaration: declaration)) }
            return
        }
        feature.assignIdentity(propertyName: propertyName, group: groups, registry: self, declarationPath: declaration)
        let key = feature.key
        core.state.withLock { state in
            state.instances[instance] = declaration
            if let problem = Self.keyProblem(key) {
                state.problems.append(.invalidKey(key, declaration: declaration, reason: problem))
            } else if let existing = state.byKey[key] {
                state.problems.append(.duplicateKey(key, firstDeclaration: existing.declarationPath, secondDeclaration: declaration))
            } else {
                state.byKey[key] = feature
            }
            state.features.append(feature)
            state.keys.append(key)
            if groups.isEmpty { state.rootFeatures.append(feature) }
        }
        groups.last?.append(feature: feature)
    }

    static func keyProblem(_ key: String) -> String? {
        if key.isEmpty { return "a key must not be empty" }
        // Printable ASCII has no control characters; only other keys need the (slower) Unicode properties.
        if key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        if key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
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
    /// Flags are checked in order; on the first error, the flags before it stay registered and the error is
    /// thrown.
    /// - Parameters:
    ///   - features: the flags, each with an explicit key.
    ///   - groupPath: the dot-separated keys of the group to put them in, or `nil` for the top level.
    /// - Throws: `RegistryError.invalidKey` (no or bad key), `RegistryError.duplicateKey`.
    public func register(_ features: [AnyFeature], in groupPath: String? = nil) throws {
        defer {
            core.keyTable.publish(core.state.withLock { $0.byKey })
            for feature in features where feature.registry === self { feature.recordLaunchValue() }
        }
        try registerUnpublished(features, in: groupPath)
    }

    /// Adds flags without publishing a new lookup table or recording launch values (the caller does both).
    func registerUnpublished(_ features: [AnyFeature], in groupPath: String?) throws {
        let groupKeys = groupPath.map { $0.split(separator: ".").map(String.init) } ?? []
        let groupChain = group(chainFor: groupKeys)
        try core.writes.withLock { _ in
            for feature in features {
                guard let key = feature.explicitKey else {
                    throw RegistryError.invalidKey(feature.label, reason: "a flag registered at runtime needs an explicit key: Feature(key: \"…\")")
                }
                if let problem = Self.keyProblem(key) { throw RegistryError.invalidKey(key, reason: problem) }
                try core.state.withLock { state in
                    if let existing = state.byKey[key] {
                        throw RegistryError.duplicateKey(key, existingDeclaration: existing.declarationPath)
                    }
                    if feature.registry != nil || state.instances[ObjectIdentifier(feature)] != nil {
                        throw RegistryError.duplicateKey(key, existingDeclaration: feature.declarationPath)
                    }
                    feature.assignIdentity(propertyName: nil, group: groupChain, registry: self, declarationPath: nil)
                    state.byKey[key] = feature
                    state.features.append(feature)
                    state.keys.append(key)
                    if groupChain.isEmpty { state.rootFeatures.append(feature) }
                    state.searchIndex = nil
                    state.searchMemos = []
                    let stored = state.storedOverrides[key] ?? .featureDefault
                    feature.overrideCell.store(stored.cellValue, ordering: .relaxed)
                }
                groupChain.last?.append(feature: feature)
            }
        }
    }

    /// Finds or creates the groups for a key path.
    func group(chainFor keys: [String]) -> [FeatureGroup] {
        var chain: [FeatureGroup] = []
        var path = ""
        for key in keys {
            path = path.isEmpty ? key : path + "." + key
            if let existing = core.state.withLock({ $0.groupsByPath[path] }) {
                chain.append(existing)
                continue
            }
            let created = FeatureGroup()
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
