import Synchronization

/// A flag whose default is computed by a closure when read.
///
/// ```swift
/// let tuesdayExperiment = DynamicFeature { _ in Calendar.current.component(.weekday, from: Date()) == 3 }
/// ```
///
/// Cost: with the default ``Caching/none`` the closure runs on every read of `enabled` that is not
/// overridden, so its cost is added to each read (a calendar computation costs many times a plain flag's
/// read). Choose ``Caching/once`` (computed at the first read, until
/// ``invalidateCache()``) or ``Caching/interval(_:)`` (recomputed at most once per interval) for closures that
/// are expensive or read on hot paths. The closure may run on any thread and must not read this flag's
/// `enabled` (that would recurse).
public final class DynamicFeature: AnyFlag, @unchecked Sendable {
    // @unchecked: the closure and the clock are Sendable and immutable; the cache is one atomic word.

    /// How often the closure runs.
    public enum Caching: Sendable, Hashable {
        /// On every read.
        case none
        /// Once, at the first read; again after `invalidateCache()`.
        case once
        /// At most once per interval.
        case interval(Duration)
    }

    /// The caching policy.
    public let caching: Caching
    private let compute: @Sendable (DynamicFeature) -> Bool
    /// The time since this flag was created, on its clock (only for `.interval`).
    private let elapsed: (@Sendable () -> Duration)?
    /// The cached value, published as one atomic word (see ``CachedValue``): reads take no lock.
    private let cache = Atomic<UInt64>(CachedValue.empty)

    /// Creates a dynamic flag.
    /// - Parameters:
    ///   - key: an explicit store key; `nil` derives it from the property name.
    ///   - label: a display label; `nil` humanises the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after the app restarts.
    ///   - caching: how often `compute` runs (default: on every read).
    ///   - clock: the clock `.interval` caching measures its interval on (default `ContinuousClock()`; tests
    ///     pass a manual clock and advance it).
    ///   - compute: computes the default; receives this flag.
    public init(
        key: String? = nil, label: String? = nil, description: String? = nil,
        requiresRestart: Bool = false, caching: Caching = .none,
        clock: any Clock<Duration> = ContinuousClock(),
        compute: @escaping @Sendable (DynamicFeature) -> Bool
    ) {
        self.caching = caching
        self.compute = compute
        if case .interval = caching {
            self.elapsed = Self.elapsedTime(on: clock)
        } else {
            self.elapsed = nil
        }
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
    }

    /// Opens the clock existential once: instants of `any Clock` cannot be subtracted, the concrete clock's can.
    private static func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// `.dynamic`.
    public override var kind: FeatureKind { .dynamic }

    /// The closure's value, cached as configured.
    ///
    /// Reading the cache is one atomic load (plus, for `.interval`, one read of the clock); two threads that
    /// find it stale at once may both run the closure.
    public override var computedDefault: Bool {
        switch caching {
        case .none:
            return compute(self)
        case .once:
            if let cached = CachedValue.value(of: cache.load(ordering: .acquiring)) { return cached }
            let value = compute(self)
            cache.store(CachedValue.word(value, at: .zero), ordering: .releasing)
            return value
        case .interval(let interval):
            let now = elapsed?() ?? .zero
            let word = cache.load(ordering: .acquiring)
            if let cached = CachedValue.value(of: word), now - CachedValue.time(of: word) < interval {
                return cached
            }
            let value = compute(self)
            cache.store(CachedValue.word(value, at: now), ordering: .releasing)
            return value
        }
    }

    /// The closure's value with source `.dynamic`.
    public override func resolveDefault() -> Resolution {
        let detail: String?
        switch caching {
        case .none: detail = "computed on read"
        case .once: detail = "computed once"
        case .interval(let interval): detail = "recomputed every \(interval)"
        }
        return .single(computedDefault, from: .dynamic, detail: detail)
    }

    /// Forgets the cached value so the next read runs the closure again, and tells observers (Observation) of
    /// this flag when the closure now gives another value: the one way an app says that what the closure reads
    /// has changed. For a flag an observer has read, this runs the closure once to compare.
    public func invalidateCache() {
        cache.store(CachedValue.empty, ordering: .releasing)
        announceObservedChange()
    }
}

/// The packing of `DynamicFeature`'s cache into one word: bit 63 set when a value is cached, bit 62 the
/// value, bits 0–61 when it was computed, in nanoseconds since the flag was created (146 years).
enum CachedValue {
    static let empty: UInt64 = 0
    private static let present: UInt64 = 1 << 63
    private static let on: UInt64 = 1 << 62
    private static let timeMask: UInt64 = on - 1

    static func word(_ value: Bool, at time: Duration) -> UInt64 {
        let (seconds, attoseconds) = time.components
        let flags = present | (value ? on : 0)
        guard seconds < 4_000_000_000 else { return flags | timeMask }  // 2^62 ns is about 4.6e9 s
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds / 1_000_000_000)
        return flags | UInt64(nanoseconds)
    }

    static func value(of word: UInt64) -> Bool? {
        word & present == 0 ? nil : word & on != 0
    }

    static func time(of word: UInt64) -> Duration {
        .nanoseconds(Int64(word & timeMask))
    }
}
