import Flagstaff
import Foundation

/// An Unleash client that can back registry flags: the frontend ``UnleashClient`` and the local-evaluation
/// ``UnleashServerClient``.
public protocol UnleashToggleSource: RemoteSource {
    /// Whether a toggle is on, or `nil` when the source has no answer for it yet (then the flag's own default
    /// applies).
    ///
    /// - Parameters:
    ///   - name: The toggle's name.
    ///   - countingMetrics: Whether to count this read as an evaluation for Unleash metrics (reads by the
    ///     app count; reads for explanations and display do not).
    /// - Returns: The toggle's state, or `nil`.
    func enabledState(ofToggle name: String, countingMetrics: Bool) -> Bool?

    /// The names of every toggle the source knows, in the server's order.
    var toggleNames: [String] { get }

    /// When toggles were last fetched successfully, or `nil`.
    var lastFetchTime: Date? { get }
}
