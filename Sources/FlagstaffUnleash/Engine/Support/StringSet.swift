/// A set of strings tuned for constraint value lists: short lists are scanned (string equality is a length check
/// and a byte compare), long ones hashed. Scanning beats hashing for the few values most constraints carry.
struct StringSet: Sendable {
    private static let scanLimit = 8
    private let small: [String]
    private let large: Set<String>

    init(_ values: [String]) {
        let unique = Array(Set(values))
        if unique.count <= Self.scanLimit {
            small = unique
            large = []
        } else {
            small = []
            large = Set(unique)
        }
    }

    @inline(__always)
    func contains(_ value: String) -> Bool {
        if large.isEmpty {
            for candidate in small where candidate == value { return true }
            return false
        }
        return large.contains(value)
    }
}
