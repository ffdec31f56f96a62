import Flagstaff
import Foundation

extension UnleashClient: UnleashToggleSource {
    /// `"Unleash"`.
    public var name: String { "Unleash" }

    /// The polling status: `.failed` after 401/403 (polling stopped) or a failed fetch, `.throttled` while
    /// backing off after 404/429/5xx, `.neverFetched` before the first success, else `.ok`.
    public var status: RemoteSourceStatus { poller.status }

    /// Fetches now (the console's Ctrl-R). After 401/403 stopped polling, a successful refresh starts it again.
    public func refresh() async {
        await poller.refresh()
    }

    /// The toggle's state, `nil` while the client has no toggles at all; a toggle missing from the frontend
    /// API's answer is off.
    /// - Parameters:
    ///   - name: The toggle's name.
    ///   - countingMetrics: Whether to count the read for metrics (and send impressions), as ``isEnabled(_:)``.
    /// - Returns: The state, or `nil`.
    public func enabledState(ofToggle name: String, countingMetrics: Bool) -> Bool? {
        guard hasToggles else { return nil }
        return countingMetrics ? isEnabled(name) : (toggle(named: name)?.enabled ?? false)
    }

    /// The names of the toggles served, in order.
    public var toggleNames: [String] { poller.read { $0.order } }

    /// Backs registry flags with this client's toggles.
    ///
    /// Attaches the client to the registry as a remote source (status in the console, Ctrl-R), registers every
    /// toggle no ``UnleashFeature`` of the registry stands for (and no `Setting` is bound to with
    /// ``binding(_:)``, and no flag has as its key) as an ``UnleashFeature`` in `group` so QA sees and can
    /// override it, and from now on notifies the registry's subscribers (`FeatureChange.origin == .remote`) of
    /// the flags and settings whose toggles changed, registering new toggles as they appear. The registry is
    /// held weakly. Attach a registry once.
    /// - Parameters:
    ///   - registry: The registry.
    ///   - group: The group key for runtime-registered toggles (default `unleash`, shown as "Unleash").
    public func attach(to registry: AnyFeatureRegistry, group: String = "unleash") {
        poller.attach(source: self, to: registry, group: group)
    }
}
