import Flagstaff

/// A registry following an ``OFREPProvider`` (a QA link to `flagstaff serve`): each member whose key the server
/// evaluates takes the server's value, with the source ``ResolutionSource/link(server:)`` in its `resolution`.
///
/// **Only what QA decided.** A Flagstaff server says where each value came from (`metadata.source`); the link
/// takes a value only when QA decided it there (an `override`, or a `launch` value the server was started with).
/// The server's own evaluation of a default, a build-target rule, a dynamic closure or a remote value is never
/// pushed into the app: those members keep the app's own values, and a member QA resets on the server goes back
/// to the app's value. A server that names no source (another OFREP server) is followed for every value.
///
/// The linked value wins over the member's local override, remote value and default, and loses to a launch
/// override and to a task-local test override (`withFeature`, `withSetting`). A value that is not valid for the
/// member (wrong type, out of range, not a choice) is not linked and is listed in ``problems``; a flag takes
/// `true`/`false`. Nothing is written to the override store. ``unlink()`` (or releasing the link) restores the
/// app's own values.
public final class OFREPLink: Sendable {
    private struct State {
        var registry: AnyFeatureRegistry?
        var problems: [String: String] = [:]
        var appliedKeys = 0
    }

    /// The provider the values come from.
    public let provider: OFREPProvider
    /// Held while values are applied, so that two answers are applied in the order they were read.
    private let state: AnnotatedMutex<State>
    private let subscription = AnnotatedMutex<ChangeSubscription?>(nil)

    init(provider: OFREPProvider, registry: AnyFeatureRegistry) {
        self.provider = provider
        state = AnnotatedMutex(State(registry: registry))
    }

    deinit { unlink() }

    /// Server values the registry's members refused, by key: why each was not linked.
    public var problems: [String: String] { state.withLock { $0.problems } }

    /// How many server keys the link has put in force or taken back so far (for tests and diagnostics): an answer
    /// that changed one key adds one.
    package var appliedKeyCount: Int { state.withLock { $0.appliedKeys } }

    /// Whether the link is in force.
    public var isLinked: Bool { state.withLock { $0.registry != nil } }

    /// Restores the app's own values: every linked value is removed (observers and subscribers are told). The
    /// provider keeps running until it is stopped. Safe to call more than once.
    public func unlink() {
        subscription.withLock { $0 }?.cancel()
        state.withLock { state in
            guard let registry = state.registry else { return }
            state.registry = nil
            state.problems = [:]
            registry.applyLinkedValues([:], server: provider.options.origin)
        }
    }

    /// Puts the provider's values in force: every key's (`keys` `nil`), or only those of `keys` (the keys an
    /// answer changed: the others cost nothing).
    func apply(keys: Set<String>? = nil) {
        state.withLock { state in
            guard let registry = state.registry else { return }
            let flags = provider.flags
            let server = provider.options.origin
            guard let keys else {
                var values: [String: OverrideValue] = [:]
                for (key, flag) in flags {
                    if let value = Self.linkedValue(flag, key: key, in: registry) { values[key] = value }
                }
                state.appliedKeys += flags.count
                state.problems = registry.applyLinkedValues(values, server: server).problems
                return
            }
            var values: [String: OverrideValue] = [:]
            for key in keys {
                if let flag = flags[key], let value = Self.linkedValue(flag, key: key, in: registry) {
                    values[key] = value
                }
            }
            state.appliedKeys += keys.count
            let outcome = registry.updateLinkedValues(values, keys: keys, server: server)
            for key in keys { state.problems[key] = outcome.problems[key] }
        }
    }

    /// The value a member takes from a flag: `true`/`false` are `on`/`off` for a flag. `nil` when the server
    /// has no value for it or no member has its key.
    private static func linkedValue(_ flag: OFREPFlag, key: String, in registry: AnyFeatureRegistry) -> OverrideValue? {
        if let source = flag.source, !qaSources.contains(source) { return nil }
        guard let value = flag.value, let member = registry.feature(forKey: key) else { return nil }
        guard member is AnyFlag else { return value }
        switch value.json {
        case "true": return .on
        case "false": return .off
        default: return value
        }
    }

    /// The sources of a Flagstaff server's values that QA decided (``ResolutionSource/displayName``).
    static let qaSources: Set<String> = ["override", "launch"]

    func keep(_ subscription: ChangeSubscription) {
        self.subscription.withLock { $0 = subscription }
    }
}

extension OFREPProvider {
    /// Links a registry to this provider's values and starts the provider (see ``OFREPLink``).
    ///
    /// ```swift
    /// let link = OFREPProvider(options: options).link(to: features)   // QA builds only
    /// // … later: link.unlink()
    /// ```
    /// The provider is attached to the registry as a remote source (the console shows its status, `Ctrl-R`
    /// refreshes it).
    /// - Parameter registry: The registry whose members follow the server.
    /// - Returns: The link; keep it as long as the registry should follow the server.
    public func link(to registry: AnyFeatureRegistry) -> OFREPLink {
        let link = OFREPLink(provider: self, registry: registry)
        link.keep(onChange { [weak link] keys in link?.apply(keys: keys) })
        registry.attach(self)
        link.apply()
        // QA's console shows the app's own flags: the registry's manifest, with the values only the app can evaluate
        // as it reads them now (made when sent, so a member registered since is in it).
        announce { [weak registry] in try? registry?.announcedManifest().announcementJSON() }
        start()
        return link
    }
}
