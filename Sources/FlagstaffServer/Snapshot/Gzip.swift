import CZlib
import Foundation

/// gzip (RFC 1952) with the system's zlib: the bodies of a snapshot are compressed once and sent to every client
/// that accepts `gzip` (a 1,000-member bulk OFREP body of 134 KB becomes a few kilobytes).
package enum Gzip {
    /// `bytes` compressed as a gzip member, or `nil` when zlib refuses (out of memory).
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // 15 window bits plus 16: a gzip header and trailer instead of zlib's.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }

    /// A gzip member decompressed, or `nil` when it is not one (for tests).
    package static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var input = bytes
        var result: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 64 << 10)
        let done: Bool = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let status = piece.withUnsafeMutableBufferPointer { target -> Int32 in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                result.append(contentsOf: piece[0..<(piece.count - Int(stream.avail_out))])
                if status == Z_STREAM_END { return true }
                if status != Z_OK { return false }
            }
        }
        return done ? result : nil
    }

    /// Whether an `Accept-Encoding` header accepts gzip (`gzip` or `*`, without `q=0`).
    package static func isAccepted(by header: String?) -> Bool {
        guard let header else { return false }
        for item in HeaderList.elements(header) {
            let parts = item.split(separator: ";").map { HeaderList.trimmed($0).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let refused = parts.dropFirst().contains { parameter in
                parameter.hasPrefix("q=") && (Double(parameter.dropFirst(2)) ?? 1) == 0
            }
            return !refused
        }
        return false
    }
}
