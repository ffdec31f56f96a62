import Foundation

/// An app connected to the flag server the console runs (`flagstaff console --serve`), as the apps overlay (`A`)
/// lists it: who it is, how it follows the values, and whether it has the values served now.
package struct ConnectedApp: Sendable, Equatable {
    /// How the app follows the values.
    package enum Connection: Sendable, Equatable {
        /// An open event stream, by protocol (`Unleash`, `OFREP`): changes reach it at once.
        case streaming(String)
        /// It fetches on its own schedule.
        case polling
    }

    /// Whether the app has the values served now.
    package enum Freshness: Sendable, Equatable {
        /// It has them.
        case upToDate
        /// It lacks this many changes; `nil`: more than the server keeps count of.
        case behind(changes: Int?)
        /// It has been sent no values yet (its stream is starting).
        case notFetched
    }

    /// The app's name (`appName`, else the `UNLEASH-APPNAME` header, else its user agent).
    package var name: String
    /// The SDK and its version, if the app said.
    package var sdk: String?
    /// The address its connection or last fetch came from, if known.
    package var address: String?
    /// Streaming or polling.
    package var connection: Connection
    /// When the server last heard from it (a request) or last wrote to its stream.
    package var lastSeen: Date
    /// Whether it has the values served now.
    package var freshness: Freshness
    /// The registry the app announced to the server, if it did (`Moments · 42 members (debug build, reported …)`):
    /// its members are in the console's list.
    package var registry: String?

    /// Creates an entry.
    package init(
        name: String, sdk: String? = nil, address: String? = nil, connection: Connection, lastSeen: Date,
        freshness: Freshness, registry: String? = nil
    ) {
        self.registry = registry
        self.name = name
        self.sdk = sdk
        self.address = address
        self.connection = connection
        self.lastSeen = lastSeen
        self.freshness = freshness
    }
}
