import Foundation
import NIOCore

/// A response decided by the protocol layer, before any transport: status, body and the ETag, if any.
package struct ServerReply: Sendable, Equatable {
    /// The HTTP status code.
    package var status: Int
    /// The body (JSON unless empty), when it is held whole.
    package var body: [UInt8]
    /// A snapshot's body as the buffer it keeps, instead of ``body`` (sent without a copy).
    package var buffer: ByteBuffer?
    /// The body rendered in pieces while it is sent (large snapshots), instead of ``body``.
    package var stream: BodyChunks?
    /// The quoted ETag to send, if any.
    package var etag: String?
    /// `gzip` when ``buffer`` is compressed, else `nil`.
    package var contentEncoding: String?

    /// Creates a reply.
    package init(
        status: Int, body: [UInt8] = [], buffer: ByteBuffer? = nil, stream: BodyChunks? = nil, etag: String? = nil,
        contentEncoding: String? = nil
    ) {
        self.contentEncoding = contentEncoding
        self.status = status
        self.body = body
        self.buffer = buffer
        self.stream = stream
        self.etag = etag
    }

    /// The whole body, rendering a streamed one and decompressing a compressed one.
    package var allBytes: [UInt8] {
        guard let buffer else { return stream?.bytes ?? body }
        let bytes = Array(buffer.readableBytesView)
        return contentEncoding == "gzip" ? Gzip.decompress(bytes) ?? [] : bytes
    }

    /// The body as text (for tests and logs).
    package var text: String { String(decoding: allBytes, as: UTF8.self) }

    /// Equal status, ETag and body bytes (a streamed body is rendered to compare).
    package static func == (lhs: ServerReply, rhs: ServerReply) -> Bool {
        lhs.status == rhs.status && lhs.etag == rhs.etag && lhs.contentEncoding == rhs.contentEncoding
            && lhs.allBytes == rhs.allBytes
    }

    /// `{"error":"…"}` with a status: how the Unleash endpoints and the transport say what is wrong.
    package static func error(_ status: Int, _ message: String) -> ServerReply {
        var json = JSONBodyWriter()
        json.raw("{")
        json.member("error", first: true)
        json.string(message)
        json.raw("}")
        return ServerReply(status: status, body: json.bytes)
    }

    /// Whether an `If-None-Match` list names `etag` (weak comparison: `W/` prefixes are ignored).
    /// A gzip-compressed body's tag is the plain one with `-gzip` before the closing quote (a representation of its
    /// own, as HTTP asks), and both name the same values here. Reads the header's UTF-8 in place, allocating
    /// nothing: every conditional GET asks.
    package static func matches(_ header: String, _ etag: String) -> Bool {
        var tag = etag.utf8[...]
        if tag.starts(with: "W/".utf8) { tag = tag.dropFirst(2) }
        let list = header.utf8
        var start = list.startIndex
        while start < list.endIndex {
            let end = list[start...].firstIndex(of: UInt8(ascii: ",")) ?? list.endIndex
            var candidate = HeaderList.trimmed(list[start..<end])
            if candidate.elementsEqual("*".utf8) { return true }
            if candidate.starts(with: "W/".utf8) { candidate = candidate.dropFirst(2) }
            if candidate.elementsEqual(tag) || isGzipTag(candidate, of: tag) { return true }
            start = end == list.endIndex ? end : list.index(after: end)
        }
        return false
    }

    /// Whether `candidate` is ``gzipTag(_:)`` of `tag`, compared in place.
    private static func isGzipTag(_ candidate: Substring.UTF8View, of tag: Substring.UTF8View) -> Bool {
        let quoted = tag.count >= 2 && tag.last == UInt8(ascii: "\"")
        let stem = quoted ? tag.dropLast() : tag
        let suffix = quoted ? "-gzip\"".utf8 : "-gzip".utf8
        return candidate.count == stem.count + suffix.count && candidate.starts(with: stem)
            && candidate.dropFirst(stem.count).elementsEqual(suffix)
    }

    /// The tag of the gzip-compressed representation: `"0123abcd-gzip"` for `"0123abcd"`.
    package static func gzipTag(_ etag: String) -> String {
        guard etag.hasSuffix("\""), etag.count >= 2 else { return etag + "-gzip" }
        return String(etag.dropLast()) + "-gzip\""
    }
}
