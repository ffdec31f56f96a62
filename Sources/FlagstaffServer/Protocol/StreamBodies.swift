import Flagstaff
import NIOCore

/// The event-stream messages (Server-Sent Events) and the delta API body, rendered from feed revisions.
///
/// Unleash (as Unleash Edge serves it): `unleash-connected` carries `{"events":[…]}` bringing the client to the
/// latest revision (the whole state as one `hydration` event, or only what it missed when it resumed with a
/// known `Last-Event-ID`), `unleash-updated` the delta events of each change; the SSE `id` is the revision.
/// OFREP (ADR-0008): `event: message` with `{"type":"refetchEvaluation","etag":…,"lastModified":…}`.
package enum StreamBodies {
    /// The SSE comment sent when there is nothing to say, so that proxies and clients see the stream alive.
    static let keepAlive = ByteBuffer(string: ": keep-alive\n\n")
    /// Asks SSE clients to wait 2 s before reconnecting.
    static let retry = ByteBuffer(string: "retry: 2000\n\n")

    /// Reads a `Last-Event-ID` header: `nil` when absent or empty (a new client).
    /// - Throws: a 400 reply saying what was expected, for anything but a revision number.
    package static func lastEventID(_ header: String?) throws(ServerReplyError) -> UInt32? {
        guard let header else { return nil }
        let text = header.trimmingSpaces
        guard !text.isEmpty else { return nil }
        guard text.utf8.count <= 10, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let id = UInt32(text)
        else {
            let shown = text.utf8.count > 40 ? String(text.prefix(40)) + "…" : text
            throw ServerReplyError(
                .error(
                    400,
                    "Last-Event-ID: \(JSONText.quoted(shown)) is not an event id of this server (expected a revision number, 0–4294967295)"
                ))
        }
        return id
    }

    /// The revision an `If-None-Match` header names (`"12"`, `W/"12"` or `12`), or `nil`.
    package static func revision(inIfNoneMatch header: String?) -> UInt32? {
        guard let header else { return nil }
        var text = Substring(header.trimmingSpaces)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return UInt32(text)
    }

    /// The whole state of `revision` as one `hydration` event, in pieces: `{"events":[{"eventId":…,
    /// "type":"hydration","features":[…],"segments":[]}]}`.
    package static func hydration(_ revision: FeedRevision) -> BodyChunks {
        BodyChunks(
            snapshot: revision.snapshot,
            head: "{\"events\":[{\"eventId\":\(revision.id),\"type\":\"hydration\",\"features\":[",
            tail: "],\"segments\":[]}]}"
        ) { flag, first, json in
            if !first { json.raw(",") }
            UnleashBodies.clientFeature(flag, &json)
            return true
        }
    }

    /// `{"events":[…]}` with the delta events of `revisions` (consecutive, oldest first), or `nil` when one of
    /// them has none (the whole state must be sent).
    package static func delta(_ revisions: [FeedRevision]) -> [UInt8]? {
        var bytes = Array("{\"events\":[".utf8)
        var first = true
        for revision in revisions {
            guard let events = revision.events else { return nil }
            if events.isEmpty { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: events)
            first = false
        }
        bytes.append(contentsOf: "]}".utf8)
        return bytes
    }

    /// An SSE frame: `event:` (if any), `id:` and one `data:` line (compact JSON has no line break).
    static func frame(event: String?, id: UInt32, data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + 48)
        if let event { bytes.append(contentsOf: "event: \(event)\n".utf8) }
        bytes.append(contentsOf: "id: \(id)\ndata: ".utf8)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: "\n\n".utf8)
        return bytes
    }

    /// The frames that bring an Unleash streaming client from `known` revisions (`nil`: none, or unknown) to
    /// `latest`, as event `event` (`unleash-connected` or `unleash-updated`). The whole state when the client's
    /// revision is not known or a change in between has no delta events; rendered once per revision and shared
    /// when the client is one revision behind or needs the whole state of a snapshot whose bodies are kept.
    static func unleashFrames(
        event: String, missed: [FeedRevision]?, latest: FeedRevision
    ) -> AnySequence<ByteBuffer> {
        if let missed, missed.count == 1, missed[0] === latest, event == "unleash-updated",
            latest.events != nil
        {
            return AnySequence([
                latest.frame(.unleashUpdated) {
                    frame(event: event, id: latest.id, data: delta(missed) ?? [])
                }
            ])
        }
        if let missed, let data = delta(missed) {
            return AnySequence([ByteBuffer(bytes: frame(event: event, id: latest.id, data: data))])
        }
        // The whole state.
        if latest.snapshot.flags.count <= latest.snapshot.cachedBodyLimit {
            if event == "unleash-connected" {
                return AnySequence([
                    latest.frame(.unleashConnected) {
                        frame(event: event, id: latest.id, data: hydration(latest).bytes)
                    }
                ])
            }
            return AnySequence([ByteBuffer(bytes: frame(event: event, id: latest.id, data: hydration(latest).bytes))])
        }
        // A large snapshot: the frame in pieces, each rendered when the one before has been sent (never held whole).
        let head = ByteBuffer(string: "event: \(event)\nid: \(latest.id)\ndata: ")
        let tail = ByteBuffer(string: "\n\n")
        return AnySequence { () -> AnyIterator<ByteBuffer> in
            var stage = 0
            var pieces = hydration(latest).makeIterator()
            return AnyIterator {
                switch stage {
                case 0:
                    stage = 1
                    return head
                case 1:
                    if let piece = pieces.next() { return ByteBuffer(bytes: piece) }
                    stage = 2
                    return tail
                default:
                    return nil
                }
            }
        }
    }

    /// OFREP's message for `revision`: `{"type":"refetchEvaluation","etag":…,"lastModified":…}` (the ETag of
    /// the bulk evaluation, Unix seconds), shared by every subscriber.
    static func ofrepRefetch(_ revision: FeedRevision) -> ByteBuffer {
        revision.frame(.ofrepRefetch) {
            var json = JSONBodyWriter()
            json.raw("{\"type\":\"refetchEvaluation\"")
            json.member("etag")
            json.string(revision.etag)
            json.raw(",\"lastModified\":\(revision.lastModified)}")
            return frame(event: "message", id: revision.id, data: json.bytes)
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (HTTP's optional white space).
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
