import Flagstaff

/// A ``FeatureRegistry`` as the console reads it.
package struct RegistryFlagSource: ConsoleFlagSource {
    /// The registry.
    package let registry: FeatureRegistry

    /// Wraps a registry.
    package init(_ registry: FeatureRegistry) {
        self.registry = registry
    }

    package var name: String { registry.name }

    package var flagCount: Int { registry.allFeatures.count }

    package func notableStatuses() -> [ConsoleFlagStatus] {
        // Atomic loads only for the ordinary flags: their keys are not read.
        registry.allFeatures.lazy.filter { $0.isOverridden || $0.isPendingRestart }.map(Self.status)
    }

    package func status(forKey key: String) -> ConsoleFlagStatus? {
        registry.feature(forKey: key).map(Self.status)
    }

    package func flag(forKey key: String) -> ConsoleFlag? {
        guard let feature = registry.flag(forKey: key) else { return nil }
        return ConsoleFlag(
            key: feature.key, label: feature.label, description: feature.description, groupPath: feature.groupPath,
            kind: feature.kind, requiresRestart: feature.requiresRestart, resolution: feature.resolution,
            defaultValue: feature.computedDefault, override: feature.override, launchValue: feature.launchValue
        )
    }

    package func outline() -> ConsoleOutline {
        func outlineGroup(_ group: FeatureGroup) -> ConsoleOutline.Group {
            ConsoleOutline.Group(
                id: group.keyPath.joined(separator: "."), label: group.label,
                keys: FeatureKeys(features: group.features),
                subgroups: group.subgroups.map(outlineGroup)
            )
        }
        return ConsoleOutline(
            rootKeys: FeatureKeys(features: registry.rootFeatures), groups: registry.groups.map(outlineGroup))
    }

    package func search(_ query: String, scope: SearchScope) -> any ConsoleSearchHits {
        registry.search(query, scope: scope)
    }

    package var remoteSources: [any RemoteSource] { registry.remoteSources }

    package var storeErrorMessage: String? { registry.storeError.map { "\($0)" } }

    private static func status(_ feature: AnyFeature) -> ConsoleFlagStatus {
        ConsoleFlagStatus(
            key: feature.key, value: (feature as? AnyFlag)?.enabled ?? false,
            override: (feature as? AnyFlag)?.override ?? .featureDefault,
            isPendingRestart: feature.isPendingRestart
        )
    }
}

/// The keys of some flags, read when asked for.
struct FeatureKeys: ConsoleKeyList {
    let features: [AnyFeature]
    var count: Int { features.count }
    func key(at index: Int) -> String { features[index].key }
}

extension SearchResults: ConsoleSearchHits {
    package func key(at position: Int) -> String { self[position].feature.key }

    package func matchedRanges(at position: Int) -> [SearchField: [Range<Int>]] { self[position].matchedRanges }

    package func position(ofKey key: String) -> Int? { firstIndex(ofKey: key) }
}
