/// A response body rendered member by member, in pieces of about 64 KiB: a large snapshot's body is sent while
/// it is made and never held whole (a large `/api/client/features` body runs to tens of megabytes).
///
/// Iterating twice renders twice, with the same bytes.
package struct BodyChunks: Sequence, Sendable {
    /// The members rendered.
    let snapshot: ServedSnapshot
    /// What comes before the first member.
    let head: String
    /// What comes after the last member.
    let tail: String
    /// Renders one member (with a leading comma unless it is the first written) and says whether it wrote it.
    let member: @Sendable (ServedFlag, _ first: Bool, inout JSONBodyWriter) -> Bool

    /// The size a piece grows to before it is handed over.
    static let pieceSize = 64 << 10

    package func makeIterator() -> Iterator { Iterator(chunks: self) }

    /// The whole body in one array.
    package var bytes: [UInt8] {
        var all: [UInt8] = []
        for piece in self { all.append(contentsOf: piece) }
        return all
    }

    /// Renders the next piece.
    package struct Iterator: IteratorProtocol {
        let chunks: BodyChunks
        var index = 0
        var started = false
        var finished = false
        var wroteAny = false

        package mutating func next() -> [UInt8]? {
            guard !finished else { return nil }
            let flags = chunks.snapshot.flags
            var json = JSONBodyWriter(capacity: BodyChunks.pieceSize + 4096)
            if !started {
                started = true
                json.raw(chunks.head)
            }
            while index < flags.count, json.bytes.count < BodyChunks.pieceSize {
                if chunks.member(flags[index], !wroteAny, &json) { wroteAny = true }
                index += 1
            }
            if index == flags.count {
                json.raw(chunks.tail)
                finished = true
            }
            return json.bytes
        }
    }
}
