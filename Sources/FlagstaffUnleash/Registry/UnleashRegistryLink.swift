import Flagstaff
import Foundation

/// Connects an Unleash client to a registry: registers the toggles the registry does not declare (as flags or
/// as settings bound to their payloads), attaches the client as a remote source and forwards toggle changes as
/// registry change notifications, for flags and settings.
enum UnleashRegistryLink {
    /// Installs the link; returns the subscription that keeps it alive (the client stores it).
    static func install(
        source: any UnleashToggleSource, hub: UnleashEventHub, registry: AnyFeatureRegistry,
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
                guard let name = boundName(of: feature, to: source), names.contains(name) else { return nil }
                return feature.key
            }
            registry.notifyRemoteChange(keys: Set(keys).union(registered))
        }
    }

    /// The toggle a registry member follows in `source`: an ``UnleashFeature``'s toggle, or the toggle whose
    /// variant payload a `Setting` is bound to (``UnleashClient/binding(_:)``); `nil` for other members.
    static func boundName(of member: AnyFeature, to source: any UnleashToggleSource) -> String? {
        if let flag = member as? UnleashFeature { return flag.source === source ? flag.toggleName : nil }
        guard let setting = member as? any RemoteBindableSetting, let binding = setting.remoteBinding,
            let payloads = binding.source as? UnleashPayloadSource, payloads.toggleSource === source
        else { return nil }
        return binding.key
    }

    /// Registers a flag under `group` for every toggle no flag or setting of the registry stands for.
    /// - Returns: The keys registered.
    static func registerUnknown(
        source: any UnleashToggleSource, hub: UnleashEventHub, registry: AnyFeatureRegistry,
        group: String
    ) -> [String] {
        let bound = Set(registry.allFeatures.compactMap { boundName(of: $0, to: source) })
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
