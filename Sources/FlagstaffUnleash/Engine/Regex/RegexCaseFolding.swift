/// Simple case folding, as RE2 and Rust `regex` apply it to `(?i)`: scalars are equal when they belong to the same
/// orbit of single-scalar case mappings (`k`, `K` and the Kelvin sign; `s`, `S` and long s). Mappings that produce
/// several scalars (full folding, such as `ß` to `ss`) take no part, so `(?i)straße` does not match `STRASSE`.
///
/// Built once from the standard library's Unicode properties: every scalar that changes under case folding is
/// joined with its lowercase mapping, or its uppercase mapping where the lowercase is itself (final sigma,
/// Cherokee), when that mapping is a single scalar.
enum RegexCaseFolding {
    /// Every scalar of a non-trivial orbit, with the orbit's members (sorted, itself included).
    static let orbits: [UInt32: [UInt32]] = build()

    /// The keys of ``orbits``, sorted.
    static let foldedScalars: [UInt32] = orbits.keys.sorted()

    /// The members of `value`'s orbit, or `nil` when it has no other case.
    @inline(__always)
    static func orbit(_ value: UInt32) -> [UInt32]? { orbits[value] }

    /// `ranges` plus every case variant of their members.
    static func closed(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var added: [ClosedRange<UInt32>] = []
        for value in foldedScalars where ScalarClass.rangesContain(ranges, value) {
            for member in orbits[value] ?? [] { added.append(member...member) }
        }
        return added.isEmpty ? ranges : ScalarClass.normalized(ranges + added)
    }

    private static func build() -> [UInt32: [UInt32]] {
        var parent: [UInt32: UInt32] = [:]
        func root(_ value: UInt32) -> UInt32 {
            var current = value
            while let next = parent[current], next != current { current = next }
            return current
        }
        func join(_ first: UInt32, _ second: UInt32) {
            if parent[first] == nil { parent[first] = first }
            if parent[second] == nil { parent[second] = second }
            let (a, b) = (root(first), root(second))
            if a != b { parent[max(a, b)] = min(a, b) }
        }
        func single(_ text: String) -> UInt32? {
            var iterator = text.unicodeScalars.makeIterator()
            guard let first = iterator.next(), iterator.next() == nil else { return nil }
            return first.value
        }
        for value in UInt32(0)..<0x20000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            guard properties.changesWhenCaseFolded else { continue }
            if let lower = single(properties.lowercaseMapping), lower != value {
                join(value, lower)
            } else if let upper = single(properties.uppercaseMapping), upper != value {
                join(value, upper)
            }
        }
        var members: [UInt32: [UInt32]] = [:]
        for value in parent.keys { members[root(value), default: []].append(value) }
        var result: [UInt32: [UInt32]] = [:]
        for orbit in members.values where orbit.count > 1 {
            let sorted = orbit.sorted()
            for value in sorted { result[value] = sorted }
        }
        return result
    }
}
