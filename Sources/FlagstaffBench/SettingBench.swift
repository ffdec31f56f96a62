import Flagstaff
import Foundation
import Synchronization

/// Typed settings' hot path (`flagstaff-bench settings`): `Setting<Int>.value`, `Setting<String>.value`, an enum
/// and a `Codable` setting's `value`, beside a `[String: Int]` / `[String: String]` lookup measured in the same
/// run, on one thread and on two threads at once, and how many times a `Codable` remote value is decoded.
///
/// Budget (issue 10): Int/Double/enum reads ≤ 0.5× the dictionary lookup, String ≤ 1×, a `Codable` value decoded
/// once per change of its source, never per read. Every read cycles through four members (or four keys for the
/// dictionaries), as `core`'s lookup rows do.
enum SettingBench {
    enum Theme: String, CaseIterable, Codable, Sendable, SettingValue { case light, dark, system }

    /// A `Codable` value that counts its decodings.
    struct Config: Codable, Equatable, Sendable, SettingValue {
        var isNewFeatureEnabled: Bool
        var maxUploadSize: Int
        var themeColors: [String: String]

        static let decodings = Atomic<Int>(0)

        init(isNewFeatureEnabled: Bool, maxUploadSize: Int, themeColors: [String: String]) {
            self.isNewFeatureEnabled = isNewFeatureEnabled
            self.maxUploadSize = maxUploadSize
            self.themeColors = themeColors
        }

        init(from decoder: any Decoder) throws {
            Self.decodings.add(1, ordering: .relaxed)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            isNewFeatureEnabled = try container.decode(Bool.self, forKey: .isNewFeatureEnabled)
            maxUploadSize = try container.decode(Int.self, forKey: .maxUploadSize)
            themeColors = try container.decode([String: String].self, forKey: .themeColors)
        }

        private enum CodingKeys: String, CodingKey { case isNewFeatureEnabled, maxUploadSize, themeColors }
    }

    /// A remote source with one value per key whose generation changes only when told to.
    final class Source: SettingRemoteSource {
        let settingValueGeneration = SettingSourceGeneration()
        let values: [String: String]

        init(_ values: [String: String]) { self.values = values }

        func settingRemoteValue(forKey key: String) -> RemoteSettingValue? {
            values[key].map { RemoteSettingValue(text: $0, provider: "bench", fetchedAt: nil) }
        }
    }

    static let configJSON = ##"{"isNewFeatureEnabled":true,"maxUploadSize":2048,"themeColors":{"primary":"#000000"}}"##
    static let source = Source(["count": "42", "name": "remote", "config": configJSON])
    static let config = Config(isNewFeatureEnabled: false, maxUploadSize: 10_485_760, themeColors: ["primary": "#f"])

    struct BenchSettings: FeatureGroup {
        let count0 = Setting(default: 20, range: 1...100)
        let count1 = Setting(default: 21, range: 1...100)
        let count2 = Setting(default: 22)
        let count3 = Setting(default: 23)
        let ratio0 = Setting(default: 0.5)
        let ratio1 = Setting(default: 1.5)
        let ratio2 = Setting(default: 2.5)
        let ratio3 = Setting(default: 3.5)
        let theme0 = Setting(default: Theme.system)
        let theme1 = Setting(default: Theme.light)
        let theme2 = Setting(default: Theme.dark)
        let theme3 = Setting(default: Theme.system)
        let name0 = Setting(default: "#f05138")
        let name1 = Setting(default: "Welcome to Moments")
        let name2 = Setting(default: "a")
        let name3 = Setting(default: "")
        let config0 = Setting(default: SettingBench.config)
        let config1 = Setting(default: SettingBench.config)
        let config2 = Setting(default: SettingBench.config)
        let config3 = Setting(default: SettingBench.config)
        let remoteCount = Setting(default: 20, remote: SettingRemoteBinding(source: SettingBench.source, key: "count"))
        let remoteName = Setting(default: "x", remote: SettingRemoteBinding(source: SettingBench.source, key: "name"))
        let remoteConfig = Setting(
            default: SettingBench.config, remote: SettingRemoteBinding(source: SettingBench.source, key: "config"))
    }

    /// An immutable box, as a setting's published state is.
    final class Box: Sendable {
        let value: Int
        init(value: Int) { self.value = value }
    }

    /// An object behind an atomic pointer, read with one load and no reclamation protocol: the cheapest read a
    /// replaceable value can have (retired objects would have to be kept alive).
    final class AtomicBox: Sendable {
        private let bits: Atomic<UInt>
        init(_ box: Box) { bits = Atomic(UInt(bitPattern: Unmanaged.passRetained(box).toOpaque())) }
        deinit {
            Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits.load(ordering: .relaxed)).unsafelyUnwrapped)
                .release()
        }
        var value: Int {
            Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits.load(ordering: .acquiring)).unsafelyUnwrapped)
                ._withUnsafeGuaranteedRef { $0.value }
        }
    }

    static func run() {
        print("== settings ==")
        let settings = FeatureRegistry(BenchSettings(), options: RegistryOptions(storeWatchInterval: nil))
        let counts = [settings.count0, settings.count1, settings.count2, settings.count3]
        let ratios = [settings.ratio0, settings.ratio1, settings.ratio2, settings.ratio3]
        let themes = [settings.theme0, settings.theme1, settings.theme2, settings.theme3]
        let names = [settings.name0, settings.name1, settings.name2, settings.name3]
        let configs = [settings.config0, settings.config1, settings.config2, settings.config3]
        let keys = ["count0", "count1", "count2", "count3"]
        let ints = Dictionary(uniqueKeysWithValues: zip(keys, [20, 21, 22, 23]))
        let strings = Dictionary(uniqueKeysWithValues: zip(keys, ["#f05138", "Welcome to Moments", "a", ""]))

        let intLookup = median(CoreBench.samples { lookups($0, keys) { ints[$0] ?? 0 } })
        let stringLookup = median(CoreBench.samples { lookups($0, keys) { strings[$0]?.utf8.count ?? 0 } })
        row("reference: [String: Int] lookup", intLookup, reference: nil)
        row("reference: [String: String] lookup", stringLookup, reference: nil)
        row("Setting<Int>.value (default)", reads(counts) { $0.value }, reference: ("Int", intLookup, 0.5))
        row("Setting<Double>.value (default)", reads(ratios) { Int($0.value) }, reference: ("Int", intLookup, 0.5))
        row(
            "Setting<Theme>.value (enum, default)", reads(themes) { $0.value == .dark ? 1 : 0 },
            reference: ("Int", intLookup, 0.5))
        row(
            "Setting<String>.value (default)", reads(names) { $0.value.utf8.count },
            reference: ("String", stringLookup, 1))
        row(
            "Codable setting .value (default)", reads(configs) { $0.value.maxUploadSize },
            reference: ("Int", intLookup, nil))
        for (index, count) in counts.enumerated() { count.overriddenValue = 30 + index }
        for (index, name) in names.enumerated() { name.overriddenValue = "override \(index)" }
        for (index, theme) in themes.enumerated() { theme.overriddenValue = Theme.allCases[index % 3] }
        for config in configs {
            config.overriddenValue = Config(isNewFeatureEnabled: true, maxUploadSize: 1, themeColors: [:])
        }
        row("Setting<Int>.value (overridden)", reads(counts) { $0.value }, reference: ("Int", intLookup, 0.5))
        row(
            "Setting<Theme>.value (enum, overridden)", reads(themes) { $0.value == .dark ? 1 : 0 },
            reference: ("Int", intLookup, 0.5))
        row(
            "Setting<String>.value (overridden)", reads(names) { $0.value.utf8.count },
            reference: ("String", stringLookup, 1))
        row(
            "Codable setting .value (overridden)", reads(configs) { $0.value.maxUploadSize },
            reference: ("Int", intLookup, nil))
        let remote = [settings.remoteCount, settings.remoteCount, settings.remoteCount, settings.remoteCount]
        row("Setting<Int>.value (remote value)", reads(remote) { $0.value }, reference: ("Int", intLookup, 0.5))
        let remoteNames = [settings.remoteName, settings.remoteName, settings.remoteName, settings.remoteName]
        row(
            "Setting<String>.value (remote value)", reads(remoteNames) { $0.value.utf8.count },
            reference: ("String", stringLookup, 1))
        // What a read costs before any generic code: the reclamation protocol every setting read goes through.
        let published = (0..<4).map { PublishedReferenceBox(Box(value: $0)) }
        row(
            "floor: PublishedReference.read (epoch protocol)", reads(published) { $0.read { $0.value } },
            reference: ("Int", intLookup, nil))
        let cells = (0..<4).map { AtomicBox(Box(value: $0)) }
        row(
            "floor: one atomic pointer load (no reclamation)", reads(cells) { $0.value },
            reference: ("Int", intLookup, nil))
        decodeCount(settings.remoteConfig)
        contention(counts: counts, names: names, configs: configs, ints: ints, strings: strings, keys: keys)
    }

    /// How often a remote `Codable` value is decoded: reads without a change of the source, then one change.
    private static func decodeCount(_ setting: Setting<Config>) {
        _ = setting.value
        let before = Config.decodings.load(ordering: .relaxed)
        var sink = 0
        for _ in 0..<1_000_000 { sink &+= setting.value.maxUploadSize }
        let steady = Config.decodings.load(ordering: .relaxed) - before
        source.settingValueGeneration.advance()
        for _ in 0..<1_000_000 { sink &+= setting.value.maxUploadSize }
        let afterChange = Config.decodings.load(ordering: .relaxed) - before - steady
        if sink == -1 { print(sink) }
        print(
            "Codable remote value decodings: \(steady) in 1,000,000 reads without a change; \(afterChange) in 1,000,000 reads after one change  [budget: once per change]"
        )
    }

    /// The same reads on one thread and on two threads at once.
    private static func contention(
        counts: [Setting<Int>], names: [Setting<String>], configs: [Setting<Config>], ints: [String: Int],
        strings: [String: String], keys: [String]
    ) {
        CoreBench.contended("reference: [String: Int] lookup") { lookups($0, keys) { ints[$0] ?? 0 } }
        CoreBench.contended("reference: [String: String] lookup") { lookups($0, keys) { strings[$0]?.utf8.count ?? 0 } }
        contended("Setting<Int>.value (overridden)", counts) { $0.value }
        contended("Setting<String>.value (overridden)", names) { $0.value.utf8.count }
        contended("Codable setting .value (overridden)", configs) { $0.value.maxUploadSize }
    }

    private static func lookups(_ iterations: Int, _ keys: [String], _ read: (String) -> Int) -> Int {
        var sink = 0
        for index in 0..<iterations { sink &+= read(keys[index & 3]) }
        return sink
    }

    /// The median nanoseconds per read of `read` cycling through `members`.
    /// The median nanoseconds per read of `read` cycling through `members`. The members are reached without a
    /// retain (taking a class reference out of an array retains it, and two threads retaining the same object
    /// contend for its reference count, which would be the array's cost, not the read's).
    private static func reads<Member: AnyObject>(_ members: [Member], _ read: (Member) -> Int) -> Double {
        let unretained = members.map { Unmanaged.passUnretained($0) }
        return withExtendedLifetime(members) {
            median(
                CoreBench.samples { iterations in
                    var sink = 0
                    for index in 0..<iterations { sink &+= unretained[index & 3]._withUnsafeGuaranteedRef(read) }
                    return sink
                })
        }
    }

    /// `body` on one thread and on two at once, each read reaching its member without a retain (see ``reads``).
    private static func contended<Member: AnyObject & Sendable>(
        _ name: String, _ members: [Member], _ read: @escaping @Sendable (Member) -> Int
    ) {
        let unretained = members.map { UnretainedMember(reference: Unmanaged.passUnretained($0)) }
        withExtendedLifetime(members) {
            CoreBench.contended(name) { iterations in
                var sink = 0
                for index in 0..<iterations { sink &+= unretained[index & 3].reference._withUnsafeGuaranteedRef(read) }
                return sink
            }
        }
    }

    /// A member reference that is not retained; its owner keeps it alive.
    private struct UnretainedMember<Member: AnyObject & Sendable>: @unchecked Sendable {
        // @unchecked: Unmanaged is a plain pointer; the member is Sendable and kept alive by the caller.
        let reference: Unmanaged<Member>
    }

    private static func median(_ samples: [Double]) -> Double {
        samples.sorted()[samples.count / 2]
    }

    /// `name  median x ns  (0.31× [String: Int] lookup; budget ≤ 0.5×)`.
    private static func row(_ name: String, _ nanoseconds: Double, reference: (String, Double, Double?)?) {
        var text = String(format: "%-48@ median %7.2f ns", name as NSString, nanoseconds)
        if let (kind, lookup, budget) = reference {
            let ratio = nanoseconds / lookup
            text += String(format: "  (%.2f× [String: %@] lookup", ratio, kind as NSString)
            if let budget {
                text += String(format: "; budget ≤ %.1f×: %@", budget, (ratio <= budget ? "met" : "MISSED") as NSString)
            }
            text += ")"
        }
        print(text)
    }
}
