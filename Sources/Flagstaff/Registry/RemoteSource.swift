import Foundation

/// A remote-config source attached to a registry (a Firebase `RemoteConfig`, an Unleash client), so that
/// tools that only know the core (the console, the CLI) can show its status and ask it to fetch now.
public protocol RemoteSource: AnyObject, Sendable {
    /// A short name, e.g. "Firebase" or "Unleash".
    var name: String { get }
    /// The current status.
    var status: RemoteSourceStatus { get }
    /// Fetches and activates now (the console's `Ctrl-R`). Errors are reflected in `status`.
    func refresh() async
}

/// The status of a remote source, for display.
public struct RemoteSourceStatus: Sendable, Hashable {
    /// What the last fetch did.
    public enum State: Sendable, Hashable {
        /// No fetch has happened yet.
        case neverFetched
        /// The last fetch succeeded.
        case ok
        /// The values are older than the source considers fresh.
        case stale
        /// Fetching is paused by backoff until the given time.
        case throttled(until: Date)
        /// The last fetch failed with this message.
        case failed(String)
    }

    /// When values were last fetched successfully.
    public var lastFetch: Date?
    /// The state.
    public var state: State

    /// Creates a status.
    public init(lastFetch: Date?, state: State) {
        self.lastFetch = lastFetch
        self.state = state
    }
}
