import Flagstaff
import Foundation
import NIOCore

/// One numbered state of the served values, as the event streams announce it: the snapshot, its ETag, when it
/// was seen, and the delta events that lead to it from the revision before.
///
/// Revision ids are consecutive within one server run (the first is the start time in Unix seconds, so a client
/// resuming with the id of an earlier run is most likely unknown and gets the whole state). The frames sent to
/// the subscribers are rendered once per revision and shared (``frame(_:render:)``).
package final class FeedRevision: Sendable {
    /// The revision id: the SSE event id and the delta API's ETag.
    package let id: UInt32
    /// The snapshot's ETag (quoted), as the polling endpoints send it.
    package let etag: String
    /// When the server saw the change, in Unix seconds (OFREP's `lastModified`).
    package let lastModified: Int
    /// The values.
    package let snapshot: ServedSnapshot
    /// The delta events from the revision before (comma-separated JSON objects), or `nil` when there is none (the
    /// first revision) or the change touched so many members that the whole state is as short.
    let events: [UInt8]?
    /// Frames rendered for the subscribers, in pieces (see ``frame(_:render:)``).
    private let frames = AnnotatedMutex<[FrameKind: [ByteBuffer]]>([:])

    /// Which frame of this revision.
    enum FrameKind: Hashable {
        /// Unleash's `event` (`unleash-connected`, `unleash-updated`) bringing a client that has revision `after`
        /// here: its delta events, or the whole state when `after` is `nil`.
        case unleash(event: String, after: UInt32?)
        /// OFREP's `refetchEvaluation`.
        case ofrepRefetch
    }

    /// The most delta frames kept per revision (one per revision the clients come from; the whole state and OFREP's
    /// message are always kept): streams behind by as many different counts are rare, and each is bounded by the
    /// history's bytes.
    static let maximumDeltaFrames = 8

    init(id: UInt32, lastModified: Int, snapshot: ServedSnapshot, events: [UInt8]?) {
        self.id = id
        self.lastModified = lastModified
        self.snapshot = snapshot
        self.etag = snapshot.etag
        self.events = events
    }

    /// An empty snapshot, held by revisions kept only for their delta events.
    private static let released = ServedSnapshot(flags: [])

    /// This revision without its snapshot and frames, as the history keeps a revision once a newer one exists:
    /// only its id and delta events are read from then on (a stream that holds the full one keeps it until done).
    var withoutSnapshot: FeedRevision {
        let light = FeedRevision(id: id, lastModified: lastModified, snapshot: Self.released, events: events)
        return FeedRevision(light, etag: etag)
    }

    private init(_ light: FeedRevision, etag: String) {
        id = light.id
        lastModified = light.lastModified
        snapshot = light.snapshot
        events = light.events
        self.etag = etag
    }

    /// The frame of `kind`, rendered on first use and then shared by every stream that needs it (a response shares
    /// the buffers: no copy per client). Rendered under the lock: streams woken together by a change wait for the
    /// one rendering it instead of rendering it again. Kept as long as this revision is (a stream still writing it,
    /// or the newest revision), so at most once per revision: a change touching most members of a large registry
    /// was rendered once per stream before (1,000 streams, 14 CPU-seconds and hundreds of megabytes).
    func frame(_ kind: FrameKind, render: () -> [ByteBuffer]) -> [ByteBuffer] {
        frames.withLock { cache in
            if let kept = cache[kind] { return kept }
            let pieces = render()
            if case .unleash(_, after: .some) = kind,
                cache.keys.count(where: { if case .unleash(_, after: .some) = $0 { true } else { false } })
                    >= Self.maximumDeltaFrames
            {
                return pieces
            }
            cache[kind] = pieces
            return pieces
        }
    }

    /// The delta events that turn `old` into `new`, each carrying `id`: `feature-updated` for a member added or
    /// changed, `feature-removed` for one gone. `nil` when more than half the members changed (the whole state is
    /// then about as long, and simpler).
    static func deltaEvents(from old: ServedSnapshot, to new: ServedSnapshot, id: UInt32) -> [UInt8]? {
        var changed: [ServedFlag] = []
        var removed: [String] = []
        let sameKeys =
            old.flags.count == new.flags.count && zip(old.flags, new.flags).allSatisfy { $0.key == $1.key }
        if sameKeys {
            for (before, after) in zip(old.flags, new.flags) where !before.servesSame(as: after) {
                changed.append(after)
            }
        } else {
            let before = Dictionary(old.flags.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            let after = Set(new.flags.map(\.key))
            changed = new.flags.filter { flag in before[flag.key].map { !$0.servesSame(as: flag) } ?? true }
            removed = old.flags.map(\.key).filter { !after.contains($0) }
        }
        guard changed.count + removed.count <= max(1, new.flags.count / 2) else { return nil }
        var json = JSONBodyWriter(capacity: 300 * (changed.count + removed.count))
        var first = true
        for flag in changed {
            json.raw(
                first
                    ? "{\"eventId\":\(id),\"type\":\"feature-updated\",\"feature\":"
                    : ",{\"eventId\":\(id),\"type\":\"feature-updated\",\"feature\":")
            UnleashBodies.clientFeature(flag, &json)
            json.raw("}")
            first = false
        }
        for key in removed {
            json.raw(first ? "{" : ",{")
            json.raw("\"eventId\":\(id),\"type\":\"feature-removed\",\"featureName\":")
            json.string(key)
            json.raw(",\"project\":\"default\"}")
            first = false
        }
        return json.bytes
    }
}
