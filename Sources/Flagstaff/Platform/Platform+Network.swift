#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Platform {
    /// The 4 bytes of a dotted-quad IPv4 address (`inet_pton`, strict: no spaces, no short forms), or `nil`.
    package static func parseIPv4(_ text: String) -> [UInt8]? {
        var storage = in_addr()
        let ok = withUnsafeMutableBytes(of: &storage) { inet_pton(AF_INET, text, $0.baseAddress) }
        guard ok == 1 else { return nil }
        return withUnsafeBytes(of: storage) { Array($0.prefix(4)) }
    }

    /// The 16 bytes of an RFC 4291 IPv6 address (`inet_pton`, strict), or `nil`.
    package static func parseIPv6(_ text: String) -> [UInt8]? {
        var storage = in6_addr()
        let ok = withUnsafeMutableBytes(of: &storage) { inet_pton(AF_INET6, text, $0.baseAddress) }
        guard ok == 1 else { return nil }
        return withUnsafeBytes(of: storage) { Array($0.prefix(16)) }
    }
}
