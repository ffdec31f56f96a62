import Flagstaff
import Foundation

/// The registries linked apps announced to this server (`POST /flagstaff/v1/manifest`, sent by `OFREPProvider.link`):
/// their members that the served registry lacked are added to it (``AnyFeatureRegistry/adopt(_:)``), so that QA's
/// console shows a phone app's own flags and settings with no export, and the server serves QA's overrides of them.
/// The last announcement of each client is kept, for the console's list of apps. Thread-safe.
///
/// Bounded, since manifests come from clients: each body is limited (``bodyLimit``), and the registry takes at most
/// ``memberLimit`` members in all; an announcement that would pass it is refused whole.
package final class AppAnnouncements: Sendable {
    /// The largest announced manifest accepted, in bytes (a registry of about 100,000 members).
    package static let bodyLimit = 32 << 20
    /// The most members the served registry may have once an announcement is adopted.
    package static let memberLimit = 200_000

    /// One app's last announcement.
    package struct Announcement: Sendable, Equatable {
        /// The client's name, as the server names it elsewhere (its app name, else its user agent).
        package var client: String
        /// The registry's name in the manifest (`FeatureRegistry(name:)`, the app's name by default).
        package var registry: String
        /// The app's report: its build target and when it read its values (`nil` for a manifest without one).
        package var report: RegistryManifest.AppReport?
        /// How many members the manifest has.
        package var members: Int
        /// How many of them the served registry had not had before, this time or an earlier one.
        package var added: Int
        /// How many members an earlier announcement brought took a new value from this one (the app's values
        /// moved on: a remote value fetched since, a dynamic closure).
        package var updated: Int
        /// When the server received it.
        package var receivedAt: Date

        /// `Moments · 42 members (debug build, reported 2026-11-28 18:00:00 UTC)`.
        package var summary: String {
            let count = "\(members) member\(members == 1 ? "" : "s")"
            return "\(registry) \u{b7} \(count)" + (report.map { " (\($0.summary))" } ?? "")
        }
    }

    /// Why an announcement was refused.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong, for the client.
        package var description: String
    }

    private let state = AnnotatedMutex([String: Announcement]())
    private let now: @Sendable () -> Date

    /// Creates the list.
    /// - Parameter now: the wall clock (`Date.init` by default).
    package init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// The last announcement of every client, most recent first.
    package var all: [Announcement] {
        state.withLock { $0.values.sorted { ($0.receivedAt, $1.client) > ($1.receivedAt, $0.client) } }
    }

    /// The last announcement of a client, if it made one.
    package func announcement(ofClient client: String) -> Announcement? {
        state.withLock { $0[client] }
    }

    /// Reads an announced manifest and adopts its members into `registry`.
    /// - Parameters:
    ///   - body: the request body (a manifest, as an app writes it beside its store).
    ///   - client: the client's name.
    ///   - registry: the served registry.
    /// - Returns: the announcement recorded.
    /// - Throws: ``Refusal`` naming what is wrong (an unreadable manifest, too many members, a key the registry
    ///   refuses); nothing of the manifest is adopted then.
    package func receive(_ body: [UInt8], from client: String, into registry: AnyFeatureRegistry) throws(Refusal)
        -> Announcement
    {
        let manifest: RegistryManifest
        do {
            manifest = try RegistryManifest.decode(Data(body), source: "the announced manifest")
        } catch {
            throw Refusal(description: "\(error)")
        }
        let members = manifest.memberCount
        // Counted before adopting: what is declared already adds nothing, so this refuses no more than it must.
        guard registry.allFeatures.count + members <= Self.memberLimit || members == 0 else {
            throw Refusal(
                description:
                    "the manifest has \(members) members and the registry \(registry.allFeatures.count): more than the \(Self.memberLimit) this server takes"
            )
        }
        let adoption: AnyFeatureRegistry.ManifestAdoption
        do {
            adoption = try registry.adopt(manifest)
        } catch {
            throw Refusal(description: "cannot add the manifest's members: \(error)")
        }
        let received = now()
        return state.withLock { state in
            let added = (state[client]?.registry == manifest.name ? state[client]?.added ?? 0 : 0) + adoption.added
            let announcement = Announcement(
                client: client, registry: manifest.name, report: manifest.app, members: members, added: added,
                updated: adoption.updated, receivedAt: received)
            if state[client] == nil, state.count >= ClientTracker.maximumClients,
                let oldest = state.values.min(by: { $0.receivedAt < $1.receivedAt })
            {
                state[oldest.client] = nil
            }
            state[client] = announcement
            return announcement
        }
    }
}
