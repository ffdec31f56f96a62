import Flagstaff
import Foundation

/// Connects an Unleash client to a registry: registers the toggles the registry does not declare, attaches
/// the client as a remote source and forwards toggle changes as registry change notifications.
enum UnleashRegistryLink {
    /// Installs the link; returns the subscription that keeps it alive (the client stores it).
    static func install(
        source: any UnleashToggleSource, hub: UnleashEventHub, registry: FeatureRegistry,
        group: String
    ) -> UnleashEventSubscription {
        registry.attach(source)
        let registered = registerUnknown(source: source, hub: hub, registry: registry, group: group)
        registry.notifyRemoteChange(keys: Set(registered))
        return hub.subscribe { [weak registry, weak source, weak hub] event in
            guard case .update(let changed) = event, let registry, let source, let hub else { return }
            let registered = registerUnknown(source: source, hub: hub, registry: registry, group: group)
            let names = Set(changed)
            let keys = registry.allFeatures.compactMap { feature -> String? in
                guard let flag = feature as? UnleashFeature, flag.source === source, names.contains(flag.toggleName)
                else { return nil }
                return flag.key
            }
            registry.notifyRemoteChange(keys: Set(keys).union(registered))
        }
    }

    /// Registers a flag under `group` for every toggle no flag of the registry stands for.
    /// - Returns: The keys registered.
    static func registerUnknown(
        source: any UnleashToggleSource, hub: UnleashEventHub, registry: FeatureRegistry,
        group: String
    ) -> [String] {
        let bound = Set(
            registry.allFeatures.compactMap { feature -> String? in
                guard let flag = feature as? UnleashFeature, flag.source === source else { return nil }
                return flag.toggleName
            })
        var registered: [String] = []
        for name in source.toggleNames where !bound.contains(name) && registry.feature(forKey: name) == nil {
            let flag = UnleashFeature(
                key: name, toggleName: name, label: name,
                description: "Unleash toggle \"\(name)\" (registered at runtime)", source: source)
            do {
                try registry.register(flag, in: group)
                registered.append(name)
            } catch {
                hub.emit(
                    .error(
                        UnleashClientFailure(
                            operation: .registry,
                            error: .invalidResponse("toggle \"\(name)\" cannot be registered: \(error)"))))
            }
        }
        return registered
    }
}
