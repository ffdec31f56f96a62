import Flagstaff
import Foundation

extension UnleashServerClient: UnleashToggleSource {
    /// `"Unleash"`.
    public var name: String { "Unleash" }

    /// The polling status: `.failed` after 401/403 or a failed fetch, `.throttled` while backing off,
    /// `.neverFetched` before the first success, else `.ok`.
    public var status: RemoteSourceStatus { poller.status }

    /// Fetches now (the console's Ctrl-R); a success after 401/403 starts polling again.
    public func refresh() async {
        await poller.refresh()
    }

    /// The flag's state for ``defaultContext``, or `nil` when the engine's state does not contain it.
    /// - Parameters:
    ///   - name: The flag's name.
    ///   - countingMetrics: Whether to count the evaluation for metrics.
    /// - Returns: The state, or `nil`.
    public func enabledState(ofToggle name: String, countingMetrics: Bool) -> Bool? {
        guard engine.feature(named: name) != nil else { return nil }
        return countingMetrics ? isEnabled(name) : engine.isEnabled(name, context: defaultContext)
    }

    /// The names of the features in the engine's state, in the server's order.
    public var toggleNames: [String] { engine.featureNames }

    /// Backs registry flags with this client's local evaluation for ``defaultContext``: attaches the client as a
    /// remote source, registers every flag the registry does not stand for (with an ``UnleashFeature`` or a
    /// `Setting` bound with ``binding(_:)``) as an ``UnleashFeature`` in `group`, and notifies the registry of the
    /// flags and settings whose definitions changed. The registry is held weakly.
    /// - Parameters:
    ///   - registry: The registry.
    ///   - group: The group key for runtime-registered flags (default `unleash`, shown as "Unleash").
    public func attach(to registry: AnyFeatureRegistry, group: String = "unleash") {
        poller.attach(source: self, to: registry, group: group)
    }
}
