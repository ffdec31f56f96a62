import Foundation

/// A client connected to one of the event streams, as the console lists it.
package struct StreamClient: Sendable, Hashable {
    /// Which stream.
    package enum Kind: String, Sendable, Hashable {
        /// `GET /api/client/streaming` (Unleash SDKs in streaming mode).
        case unleash = "unleash streaming"
        /// `GET /ofrep/v1/events` (OFREP providers).
        case ofrep = "ofrep events"
    }

    /// The stream's number in this run of the server.
    package var id: UInt64
    /// The application's name (`UNLEASH-APPNAME`, else the user agent).
    package var name: String
    /// The SDK and version (`unleash-sdk`, else the user agent), if known.
    package var sdk: String?
    /// The client's address and port.
    package var address: String?
    /// Which stream.
    package var kind: Kind
    /// When it connected.
    package var connectedAt: Date
    /// When the server last wrote to it successfully (an event or a keep-alive).
    package var lastSeen: Date
    /// The revision (``FeedRevision/id``) it was last sent, if any.
    package var revision: UInt32?
}
