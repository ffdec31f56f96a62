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

    /// The frame that brings an Unleash streaming client from revision `known` (`nil`: none) to `latest`, as event
    /// `event` (`unleash-connected` or `unleash-updated`), in pieces of about 64 KiB: the delta events of `missed`
    /// (the revisions after `known`, up to `latest`), or the whole state when `known` or `missed` is `nil` or a change
    /// in between has no delta events (it touched most members). Rendered once per revision and shared by every
    /// stream in the same place (``FeedRevision/frame(_:render:)``).
    static func unleashFrames(
        event: String, known: UInt32?, missed: [FeedRevision]?, latest: FeedRevision
    ) -> [ByteBuffer] {
        if let known, let missed, missed.allSatisfy({ $0.events != nil }) {
            return latest.frame(.unleash(event: event, after: known)) {
                [ByteBuffer(bytes: frame(event: event, id: latest.id, data: delta(missed) ?? []))]
            }
        }
        return latest.frame(.unleash(event: event, after: nil)) {
            var pieces: [ByteBuffer] = []
            var piece = ByteBuffer(string: "event: \(event)\nid: \(latest.id)\ndata: ")
            for part in hydration(latest) {
                piece.writeBytes(part)
                if piece.readableBytes >= BodyChunks.pieceSize {
                    pieces.append(piece)
                    piece = ByteBuffer()
                }
            }
            piece.writeString("\n\n")
            pieces.append(piece)
            return pieces
        }
    }

    /// OFREP's message for `revision`: `{"type":"refetchEvaluation","etag":…,"lastModified":…}` (the ETag of
    /// the bulk evaluation, Unix seconds), shared by every subscriber.
    static func ofrepRefetch(_ revision: FeedRevision) -> ByteBuffer {
        let pieces = revision.frame(.ofrepRefetch) {
            var json = JSONBodyWriter()
            json.raw("{\"type\":\"refetchEvaluation\"")
            json.member("etag")
            json.string(revision.etag)
            json.raw(",\"lastModified\":\(revision.lastModified)}")
            return [ByteBuffer(bytes: frame(event: "message", id: revision.id, data: json.bytes))]
        }
        return pieces[0]
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
