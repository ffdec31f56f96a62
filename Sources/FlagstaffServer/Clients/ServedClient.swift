import Foundation
import NIOCore

/// An SDK seen by the server: named by the `appName` of its register or metrics calls, else by its
/// `UNLEASH-APPNAME` header, else by its user agent.
package struct ServedClient: Sendable, Hashable {
    /// The application's name (or user agent).
    package var name: String
    /// The SDK, if it said (`sdkVersion` of a register call, the `unleash-sdk` header or the user agent).
    package var sdk: String?
    /// When the server first heard from it.
    package var firstSeen: Date
    /// When the server last heard from it.
    package var lastSeen: Date
    /// Requests of any kind.
    package var requests: Int
    /// `register` calls.
    package var registrations: Int
    /// `metrics` calls.
    package var metricsReports: Int
    /// The address its last fetch came from, if known.
    package var address: SocketAddress? = nil
    /// The ETag of the values its last fetch was answered with (`nil` until it fetches: register and metrics
    /// calls fetch nothing).
    package var servedETag: String? = nil

    /// ``address`` as `127.0.0.1:51234` or `[::1]:51234`.
    package var addressText: String? { address.map(StreamRoutes.describe) }
}
