import Flagstaff
import Foundation

/// The registry's effective values at one moment, the input of every response body.
///
/// Values do not depend on the request's context: the registry has one effective value per member, so every
/// client sees the same answers. The bodies are rendered once per snapshot, on first use, and reused until the
/// next change.
package final class ServedSnapshot: Sendable {
    /// The members in registry order.
    package let flags: [ServedFlag]
    /// The position of each key in ``flags``.
    private let positions: [String: Int]
    /// Changes with the values: a hash of every key, type and value.
    package let etag: String
    /// Rendered bodies, by kind.
    private let bodies = BodyCache()

    /// Creates a snapshot of given members (first of a repeated key wins).
    /// - Parameter flags: the members in registry order.
    package init(flags: [ServedFlag]) {
        self.flags = flags
        self.positions = Dictionary(flags.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.etag = Self.contentTag(flags)
    }

    /// Takes a snapshot of a registry's members.
    /// - Parameter registry: the registry.
    package convenience init(registry: FeatureRegistry) {
        self.init(flags: registry.allFeatures.map(ServedFlag.init))
    }

    /// The member with this key, or `nil`.
    package func flag(forKey key: String) -> ServedFlag? {
        positions[key].map { flags[$0] }
    }

    /// The body of `kind`, rendered on first use.
    package func body(_ kind: BodyKind, render: (ServedSnapshot) -> [UInt8]) -> [UInt8] {
        bodies.body(kind) { render(self) }
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

/// Bodies rendered for one snapshot.
private final class BodyCache: Sendable {
    private let rendered = AnnotatedMutex<[BodyKind: [UInt8]]>([:])

    func body(_ kind: BodyKind, render: () -> [UInt8]) -> [UInt8] {
        if let body = rendered.withLock({ $0[kind] }) { return body }
        let body = render()
        return rendered.withLock { cache in
            if let existing = cache[kind] { return existing }
            cache[kind] = body
            return body
        }
    }
}
