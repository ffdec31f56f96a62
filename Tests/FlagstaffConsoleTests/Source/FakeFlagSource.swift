import Flagstaff

@testable import FlagstaffConsole

/// An in-memory ``ConsoleFlagSource``: flags in groups, values the test sets, a plain substring search, and
/// counters of the whole-registry reads (to check that a change reads only the flags it touches).
final class FakeFlagSource: ConsoleFlagSource {
    struct Flag {
        var key: String
        var group: String?  // top-level group label, or nil at the root
        var defaultValue = false
        var override = OverrideState.featureDefault
        var requiresRestart = false
        var launchValue = false
        var value: Bool { override.forcedValue ?? defaultValue }
    }

    private struct Contents {
        var flags: [Flag] = []
        var fullReads = 0
        var flagReads = 0
        var statusReads = 0
        var readKeys: [String] = []
    }

    private let contents = AnnotatedMutex(Contents())
    let name = "Fake"

    init(_ flags: [Flag]) {
        contents.withLock { $0.flags = flags }
    }

    /// How many times every flag was read (`notableStatuses()`, `outline()`, `search`).
    var fullReads: Int { contents.withLock { $0.fullReads } }
    /// How many times one flag was read (`status(forKey:)`, `flag(forKey:)`).
    var flagReads: Int { contents.withLock { $0.flagReads } }
    /// How many times one flag's status was read (`status(forKey:)`: counting it).
    var statusReads: Int { contents.withLock { $0.statusReads } }
    /// The keys read one by one, in order.
    var readKeys: [String] { contents.withLock { $0.readKeys } }

    func change(_ key: String, _ body: (inout Flag) -> Void) {
        contents.withLock { contents in
            guard let index = contents.flags.firstIndex(where: { $0.key == key }) else { return }
            body(&contents.flags[index])
        }
    }

    func add(_ flag: Flag) { contents.withLock { $0.flags.append(flag) } }

    var keys: [String] { contents.withLock { $0.flags.map(\.key) } }

    var flagCount: Int { contents.withLock { $0.flags.count } }

    func notableStatuses() -> [ConsoleFlagStatus] {
        contents.withLock { contents in
            contents.fullReads += 1
            return contents.flags.map(Self.status).filter { $0.override != .featureDefault || $0.isPendingRestart }
        }
    }

    /// Every flag's status (for test expectations).
    func statuses() -> [ConsoleFlagStatus] { contents.withLock { $0.flags.map(Self.status) } }

    func status(forKey key: String) -> ConsoleFlagStatus? {
        contents.withLock { contents in
            contents.flagReads += 1
            contents.statusReads += 1
            contents.readKeys.append(key)
            return contents.flags.first { $0.key == key }.map(Self.status)
        }
    }

    func flag(forKey key: String) -> ConsoleFlag? {
        contents.withLock { contents in
            contents.flagReads += 1
            contents.readKeys.append(key)
            guard let flag = contents.flags.first(where: { $0.key == key }) else { return nil }
            let source: ResolutionSource = flag.override == .featureDefault ? .static : .override
            return ConsoleFlag(
                key: flag.key, label: flag.key, groupPath: flag.group.map { [$0] } ?? [],
                requiresRestart: flag.requiresRestart,
                resolution: .single(flag.value, from: source), defaultValue: flag.defaultValue, override: flag.override,
                launchValue: flag.launchValue
            )
        }
    }

    func ordinal(forKey key: String) -> Int? {
        contents.withLock { $0.flags.firstIndex { $0.key == key } }
    }

    func key(atOrdinal ordinal: Int) -> String? {
        contents.withLock { $0.flags.indices.contains(ordinal) ? $0.flags[ordinal].key : nil }
    }

    func outline() -> ConsoleOutline {
        contents.withLock { contents in
            contents.fullReads += 1
            var groups: [(id: String, keys: Keys)] = []
            var root = Keys()
            for (ordinal, flag) in contents.flags.enumerated() {
                guard let group = flag.group else {
                    root.append(flag.key, ordinal: ordinal)
                    continue
                }
                if let index = groups.firstIndex(where: { $0.id == group }) {
                    groups[index].keys.append(flag.key, ordinal: ordinal)
                } else {
                    groups.append((group, Keys(keys: [flag.key], ordinals: [ordinal])))
                }
            }
            return ConsoleOutline(
                rootKeys: root, groups: groups.map { ConsoleOutline.Group(id: $0.id, label: $0.id, keys: $0.keys) })
        }
    }

    func search(_ query: String, scope: SearchScope) -> any LiveSearchHits {
        contents.withLock { contents in
            contents.fullReads += 1
            let found = contents.flags.enumerated().filter {
                Self.status($0.element).isIncluded(in: scope)
                    && (query.isEmpty || $0.element.key.lowercased().contains(query.lowercased()))
            }
            return Hits(keys: found.map(\.element.key), ordinals: found.map(\.offset))
        }
    }

    var remoteSources: [any RemoteSource] { [] }
    var storeErrorMessage: String? { nil }

    private static func status(_ flag: Flag) -> ConsoleFlagStatus {
        ConsoleFlagStatus(
            key: flag.key, value: flag.value, override: flag.override,
            isPendingRestart: flag.requiresRestart && flag.value != flag.launchValue
        )
    }

    struct Hits: LiveSearchHits {
        let keys: [String]
        let ordinals: [Int32]
        init(keys: [String], ordinals: [Int]) {
            self.keys = keys
            self.ordinals = ordinals.map(Int32.init)
        }
        var count: Int { keys.count }
        func key(at position: Int) -> String { keys[position] }
        func matchedRanges(at position: Int) -> [SearchField: [Range<Int>]] { [:] }
        func ordinal(at position: Int) -> Int? { Int(ordinals[position]) }
    }

    /// Keys with their ordinals (positions among all flags).
    typealias Keys = ConsoleKeyList
}
