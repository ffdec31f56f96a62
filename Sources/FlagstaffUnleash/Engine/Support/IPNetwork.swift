import Flagstaff

/// An IPv4 or IPv6 address held as a 128-bit number, parsed with the platform's strict `inet_pton`.
struct IPAddress: Sendable, Hashable {
    /// `true` for IPv4 (stored in the low 32 bits), `false` for IPv6.
    let isIPv4: Bool
    let high: UInt64
    let low: UInt64

    /// Parses dotted-quad IPv4 or RFC 4291 IPv6 text; `nil` for anything else (surrounding spaces included).
    init?(_ text: String) {
        if text.contains(":") {
            guard let bytes = Platform.parseIPv6(text) else { return nil }
            var high: UInt64 = 0
            var low: UInt64 = 0
            for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
            for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
            self.isIPv4 = false
            self.high = high
            self.low = low
        } else {
            guard let bytes = Platform.parseIPv4(text) else { return nil }
            var value: UInt64 = 0
            for byte in bytes { value = value << 8 | UInt64(byte) }
            self.isIPv4 = true
            self.high = 0
            self.low = value
        }
    }

    /// Bit width of the address family.
    var bitWidth: Int { isIPv4 ? 32 : 128 }
}

/// An address range in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`) or a single address (`127.0.0.1`).
struct IPNetwork: Sendable, Hashable {
    let address: IPAddress
    let prefixLength: Int

    /// Parses `address` or `address/prefix`; `nil` when either part is invalid or the prefix exceeds the family's width.
    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        if parts.count == 2 {
            guard let length = Int(parts[1]), length >= 0, length <= address.bitWidth,
                parts[1].allSatisfy(\.isASCIIDigit)
            else { return nil }
            prefixLength = length
        } else {
            prefixLength = address.bitWidth
        }
        self.address = address
    }

    /// Whether `candidate` lies in this network. Addresses of different families never match.
    func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.isIPv4 == address.isIPv4 else { return false }
        if address.isIPv4 {
            let mask: UInt64 = prefixLength == 0 ? 0 : (UInt64(0xFFFF_FFFF) << UInt64(32 - prefixLength)) & 0xFFFF_FFFF
            return candidate.low & mask == address.low & mask
        }
        let highBits = min(prefixLength, 64)
        let lowBits = max(prefixLength - 64, 0)
        let highMask: UInt64 = highBits == 0 ? 0 : ~UInt64(0) << UInt64(64 - highBits)
        let lowMask: UInt64 = lowBits == 0 ? 0 : ~UInt64(0) << UInt64(64 - lowBits)
        return candidate.high & highMask == address.high & highMask && candidate.low & lowMask == address.low & lowMask
    }
}
