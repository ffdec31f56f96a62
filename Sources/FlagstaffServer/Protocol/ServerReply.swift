import Foundation

/// A response decided by the protocol layer, before any transport: status, body and the ETag, if any.
package struct ServerReply: Sendable, Equatable {
    /// The HTTP status code.
    package var status: Int
    /// The body (JSON unless empty).
    package var body: [UInt8]
    /// The quoted ETag to send, if any.
    package var etag: String?

    /// Creates a reply.
    package init(status: Int, body: [UInt8] = [], etag: String? = nil) {
        self.status = status
        self.body = body
        self.etag = etag
    }

    /// The body as text (for tests and logs).
    package var text: String { String(decoding: body, as: UTF8.self) }

    /// `{"error":"…"}` with a status: how the Unleash endpoints and the transport say what is wrong.
    package static func error(_ status: Int, _ message: String) -> ServerReply {
        var json = JSONBodyWriter()
        json.raw("{")
        json.member("error", first: true)
        json.string(message)
        json.raw("}")
        return ServerReply(status: status, body: json.bytes)
    }

    /// 200 with a snapshot's body and ETag, or 304 without a body when `ifNoneMatch` names that ETag (or is
    /// `*`).
    /// - Parameters:
    ///   - body: renders the body (called only for a 200).
    ///   - etag: the current ETag.
    ///   - ifNoneMatch: the request's `If-None-Match` header, if any.
    package static func conditional(etag: String, ifNoneMatch: String?, body: () -> [UInt8]) -> ServerReply {
        if let ifNoneMatch, matches(ifNoneMatch, etag) { return ServerReply(status: 304, etag: etag) }
        return ServerReply(status: 200, body: body(), etag: etag)
    }

    /// Whether an `If-None-Match` list names `etag` (weak comparison: `W/` prefixes are ignored).
    static func matches(_ header: String, _ etag: String) -> Bool {
        let strong = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == strong { return true }
        }
        return false
    }
}
