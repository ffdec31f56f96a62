/// An open-addressing hash table from feature name to compiled feature, built once per state.
///
/// Every evaluation starts with this lookup: FNV-1a over the name's UTF-8 bytes, confirmed with string equality,
/// is cheaper than `Dictionary`'s seeded SipHash for short names (docs/performance.md, "The Unleash engine").
struct FeatureTable: Sendable {
    private let slots: [Int32]
    private let names: [String]
    private let features: [CompiledFeature]
    /// The same features, lent to evaluations without retaining them (``features`` keeps them alive): an evaluation
    /// that retained and released its feature made two threads evaluating one flag contend on its reference count,
    /// 2.0–3.9× the one-thread time per evaluation (issue 36; docs/performance.md, "The Unleash engine").
    private let lent: [Unmanaged<CompiledFeature>]
    private let mask: Int

    init(_ entries: [String: CompiledFeature]) {
        var capacity = 8
        while capacity < entries.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: -1, count: capacity)
        var names: [String] = []
        var features: [CompiledFeature] = []
        names.reserveCapacity(entries.count)
        features.reserveCapacity(entries.count)
        for (name, feature) in entries {
            var slot = Self.hash(name) & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(names.count)
            names.append(name)
            features.append(feature)
        }
        self.slots = slots
        self.names = names
        self.features = features
        self.lent = features.map(Unmanaged.passUnretained)
        self.mask = capacity - 1
    }

    @inline(__always)
    subscript(name: String) -> CompiledFeature? {
        index(of: name).map { features[$0] }
    }

    /// Runs `body` with the feature named `name`.
    /// - Returns: What `body` returns, or `nil` when there is no such feature.
    @inline(__always)
    func withFeature<Result>(named name: String, _ body: (CompiledFeature) -> Result) -> Result? {
        guard let index = index(of: name) else { return nil }
        return lent[index]._withUnsafeGuaranteedRef(body)
    }

    @inline(__always)
    private func index(of name: String) -> Int? {
        var slot = Self.hash(name) & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 { return nil }
            if names[index] == name { return index }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    private static func hash(_ name: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
