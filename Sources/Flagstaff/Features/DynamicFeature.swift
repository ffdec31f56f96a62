import Synchronization

/// A flag whose default is computed by a closure when read.
///
/// ```swift
/// let tuesdayExperiment = DynamicFeature { _ in Calendar.current.component(.weekday, from: Date()) == 3 }
/// ```
///
/// Cost: with the default ``Caching/none`` the closure runs on every read of `enabled` that is not
/// overridden, so its cost is added to each read (a calendar computation costs about a microsecond, a
/// hundred times a plain flag). Choose ``Caching/once`` (computed at the first read, until
/// ``invalidateCache()``) or ``Caching/interval(_:)`` (recomputed at most once per interval) for closures that
/// are expensive or read on hot paths. The closure may run on any thread and must not read this flag's
/// `enabled` (that would recurse).
public final class DynamicFeature: AnyFeature, @unchecked Sendable {
    // @unchecked: the closure is @Sendable, the cache is behind a Mutex.

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
    private let cache = AnnotatedMutex<(value: Bool, at: ContinuousClock.Instant)?>(nil)

    /// Creates a dynamic flag.
    /// - Parameters:
    ///   - key: an explicit store key; `nil` derives it from the property name.
    ///   - label: a display label; `nil` humanises the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after the app restarts.
    ///   - caching: how often `compute` runs (default: on every read).
    ///   - compute: computes the default; receives this flag.
    public init(key: String? = nil, label: String? = nil, description: String? = nil,
                requiresRestart: Bool = false, caching: Caching = .none,
                compute: @escaping @Sendable (DynamicFeature) -> Bool) {
        self.caching = caching
        self.compute = compute
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
    }

    /// `.dynamic`.
    public override var kind: FeatureKind { .dynamic }

    /// The closure's value, cached as configured.
    public override var computedDefault: Bool {
        switch caching {
        case .none:
            return compute(self)
        case .once:
            if let cached = cache.withLock({ $0 }) { return cached.value }
            let value = compute(self)
            cache.withLock { $0 = (value, .now) }
            return value
        case .interval(let interval):
            let now = ContinuousClock.now
            if let cached = cache.withLock({ $0 }), now - cached.at < interval { return cached.value }
            let value = compute(self)
            cache.withLock { $0 = (value, now) }
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

    /// Forgets the cached value so the next read runs the closure again.
    public func invalidateCache() {
        cache.withLock { $0 = nil }
    }
}
