import Flagstaff
import Foundation
import NIOCore

/// The registry's effective values at one moment, the input of every response body.
///
/// Values do not depend on the request's context: the registry has one effective value per member, so every
/// client sees the same answers. The bodies of a snapshot of up to ``cachedBodyLimit`` members are rendered once,
/// on first use, and reused until the next change; a larger snapshot renders each body while sending it (in
/// pieces, see ``BodyChunks``), so that its bodies (tens of megabytes at 100,000 members) are never held.
package final class ServedSnapshot: Sendable {
    /// Snapshots of at most this many members keep their rendered bodies (10,000: bodies of up to about 3 MB).
    package static let defaultCachedBodyLimit = 10_000
    /// This snapshot's limit (see ``defaultCachedBodyLimit``).
    package let cachedBodyLimit: Int
    /// The members in registry order.
    package let flags: [ServedFlag]
    /// The position of each key in ``flags``, made on the first single-key lookup (a server that only serves
    /// whole bodies never pays for it).
    private let positions = AnnotatedMutex<[String: Int]?>(nil)
    /// Changes with the values: a hash of every key, type and value.
    package let etag: String
    /// Rendered bodies, by kind.
    private let bodies = BodyCache()

    /// Creates a snapshot of given members (first of a repeated key wins).
    /// - Parameter flags: the members in registry order.
    package init(flags: [ServedFlag], cachedBodyLimit: Int = ServedSnapshot.defaultCachedBodyLimit) {
        self.cachedBodyLimit = cachedBodyLimit
        self.flags = flags
        self.etag = Self.contentTag(flags)
    }

    /// Takes a snapshot of a registry's members.
    /// - Parameter registry: the registry.
    package convenience init(registry: AnyFeatureRegistry, cachedBodyLimit: Int = ServedSnapshot.defaultCachedBodyLimit)
    {
        self.init(flags: registry.allFeatures.map(ServedFlag.init), cachedBodyLimit: cachedBodyLimit)
    }

    /// The member with this key, or `nil`.
    package func flag(forKey key: String) -> ServedFlag? {
        let position = positions.withLock { positions in
            if positions == nil {
                positions = Dictionary(
                    flags.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return positions?[key]
        }
        return position.map { flags[$0] }
    }

    /// 200 with the body of `kind` and the ETag, or 304 without a body when `ifNoneMatch` names the ETag (or is
    /// `*`). The body is the one rendered on first use, or, above ``cachedBodyLimit`` members, pieces rendered
    /// while it is sent.
    /// - Parameters:
    ///   - kind: which body.
    ///   - ifNoneMatch: the request's `If-None-Match` header, if any.
    ///   - chunks: renders the body of a snapshot.
    ///   - acceptsGzip: whether the client accepts a gzip body (`Accept-Encoding`): a kept body is then sent
    ///     compressed (compressed once, on first use).
    ///   - variant: which variant of the body `chunks` renders (the OFREP bulk body names the address the client
    ///     used); at most ``BodyCache/maximumBodies`` bodies are kept, others are rendered for each request.
    package func reply(
        _ kind: BodyKind, variant: String = "", ifNoneMatch: String?, acceptsGzip: Bool = false,
        chunks: @escaping @Sendable (ServedSnapshot) -> BodyChunks
    ) -> ServerReply {
        if let ifNoneMatch, ServerReply.matches(ifNoneMatch, etag) { return ServerReply(status: 304, etag: etag) }
        guard flags.count <= cachedBodyLimit else { return ServerReply(status: 200, stream: chunks(self), etag: etag) }
        let kind = BodyKey(kind: kind, variant: variant)
        guard let plain = bodies.body(kind, of: self, chunks: chunks) else {
            return ServerReply(status: 200, buffer: ByteBuffer(bytes: chunks(self).bytes), etag: etag)
        }
        if acceptsGzip, let compressed = bodies.gzipped(kind, of: plain) {
            return ServerReply(
                status: 200, buffer: compressed, etag: ServerReply.gzipTag(etag), contentEncoding: "gzip")
        }
        return ServerReply(status: 200, buffer: plain, etag: etag)
    }

    /// Renders now the bodies `previous` was asked for (and compresses those asked for compressed), so that the
    /// first requests after a change find them made or being made. The change feed calls it once the change is
    /// announced, while the clients' refetches are on their way. A body `previous` only had prepared, never asked
    /// for, is not made again: a client that stopped asking costs nothing from the next change on.
    /// - Parameter previous: the snapshot this one replaces.
    package func prepareBodies(like previous: ServedSnapshot) {
        guard flags.count <= cachedBodyLimit else { return }
        for recipe in previous.bodies.recipes {
            guard let plain = bodies.body(recipe.kind, of: self, chunks: recipe.chunks, asked: false), recipe.gzipped
            else {
                continue
            }
            _ = bodies.gzipped(recipe.kind, of: plain, asked: false)
        }
    }

    /// A quoted strong ETag: 64-bit FNV-1a of every member's key, type and value, in hex.
    private static func contentTag(_ flags: [ServedFlag]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            hash ^= 0xff
            hash &*= 0x0000_0100_0000_01b3
        }
        for flag in flags {
            mix(flag.key)
            mix(flag.type.name)
            mix(flag.value.json)
            mix(flag.source)
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}

/// The bodies a snapshot renders once.
package enum BodyKind: Int, Sendable, CaseIterable {
    /// `GET /api/frontend`.
    case frontend
    /// `GET /api/client/features`.
    case clientFeatures
    /// `POST /ofrep/v1/evaluate/flags`.
    case ofrepBulk
}

/// A kept body: its kind and variant.
struct BodyKey: Hashable {
    var kind: BodyKind
    var variant: String
}

/// Bodies rendered for one snapshot, kept as the buffers responses send (a response shares the buffer: no copy
/// per request), with how each was made, so that the next snapshot can make the same ones ahead of the requests.
///
/// A body is made under its table's lock: a request that comes while another (or the change feed) makes the same
/// body waits for it instead of making it again.
final class BodyCache: Sendable {
    /// The most bodies kept per snapshot (variants come from requests).
    static let maximumBodies = 16
    /// The renderer of a kept body.
    typealias Chunks = @Sendable (ServedSnapshot) -> BodyChunks

    /// A kept body, and whether a request asked for it (not only a change, preparing it).
    private struct Kept {
        var body: ByteBuffer
        var asked: Bool
    }

    private struct Rendered {
        var bodies: [BodyKey: Kept] = [:]
        var chunks: [BodyKey: Chunks] = [:]
    }

    private let rendered = AnnotatedMutex(Rendered())
    private let compressed = AnnotatedMutex<[BodyKey: Kept]>([:])

    /// The body of `kind` compressed with gzip, made once from `plain`; `nil` if zlib refused. Level 1: the first
    /// request after a change waits for it, and level 6 took three times as long for a sixth fewer bytes.
    /// - Parameter asked: whether a request asks for it (then the next snapshot prepares it), or a change prepares it.
    func gzipped(_ kind: BodyKey, of plain: ByteBuffer, asked: Bool = true) -> ByteBuffer? {
        compressed.withLock { cache in
            if let index = cache.index(forKey: kind) {
                if asked, !cache.values[index].asked { cache.values[index].asked = true }
                return cache.values[index].body
            }
            guard let bytes = Gzip.compress(Array(plain.readableBytesView), level: 1) else { return nil }
            let body = ByteBuffer(bytes: bytes)
            cache[kind] = Kept(body: body, asked: asked)
            return body
        }
    }

    /// The body of `kind`, rendered by `chunks` on first use; `nil` when ``maximumBodies`` other bodies are kept
    /// already.
    /// - Parameter asked: whether a request asks for it (then the next snapshot prepares it), or a change prepares it.
    func body(_ kind: BodyKey, of snapshot: ServedSnapshot, chunks: @escaping Chunks, asked: Bool = true) -> ByteBuffer?
    {
        rendered.withLock { cache in
            if let index = cache.bodies.index(forKey: kind) {
                if asked, !cache.bodies.values[index].asked { cache.bodies.values[index].asked = true }
                return cache.bodies.values[index].body
            }
            guard cache.bodies.count < Self.maximumBodies else { return nil }
            let body = ByteBuffer(bytes: chunks(snapshot).bytes)
            cache.bodies[kind] = Kept(body: body, asked: asked)
            cache.chunks[kind] = chunks
            return body
        }
    }

    /// The bodies requests asked for: how each was rendered, and whether it was asked for compressed.
    var recipes: [(kind: BodyKey, chunks: Chunks, gzipped: Bool)] {
        let gzipped = compressed.withLock { cache in Set(cache.filter(\.value.asked).keys) }
        return rendered.withLock { cache in
            cache.chunks.compactMap { kind, chunks in
                cache.bodies[kind]?.asked == true ? (kind, chunks, gzipped.contains(kind)) : nil
            }
        }
    }
}
