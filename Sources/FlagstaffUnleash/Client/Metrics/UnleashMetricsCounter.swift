import Flagstaff
import Foundation

/// Counts toggle evaluations for the metrics endpoint, race-free and without threads contending.
///
/// Counts go to one of several stripes, chosen by the counting thread (``ThreadStripe``), each a dictionary under a
/// lock of its own: threads that evaluate at the same time take different locks, on different cache lines, so
/// counting costs one uncontended lock and one or two dictionary updates. Closing a bucket swaps every stripe's
/// dictionary out under that stripe's lock, so each count lands whole (yes/no and variant together) in exactly
/// one bucket: nothing is lost or counted twice while a bucket is being sent (the seed SDK's metrics race).
final class UnleashMetricsCounter: Sendable {
    /// One stripe's counts, padded so that two stripes never share a cache line.
    private final class Stripe: Sendable {
        let toggles = AnnotatedMutex([String: UnleashMetricsBucket.ToggleCounts]())
        /// Padding only (makes the object 128 bytes or more).
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
    }

    private static var stripeCount: Int { 16 }

    private let stripes: [Stripe]
    /// When the open bucket started; also serialises closing and restoring buckets.
    private let start: AnnotatedMutex<Date>
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
        start = AnnotatedMutex(now())
        stripes = (0..<Self.stripeCount).map { _ in Stripe() }
    }

    /// Runs `body` with the calling thread's stripe (retaining it writes only to that stripe's own object).
    @inline(__always)
    private func withStripe<Result>(_ body: (Stripe) -> Result) -> Result {
        body(stripes[ThreadStripe.shared.current & (Self.stripeCount - 1)])
    }

    /// Counts one evaluation.
    func count(_ name: String, enabled: Bool) {
        withStripe { stripe in
            stripe.toggles.withLock { toggles in
                if enabled {
                    toggles[name, default: .init()].yes += 1
                } else {
                    toggles[name, default: .init()].no += 1
                }
            }
        }
    }

    /// Counts one variant lookup (the evaluation itself and the variant's name).
    func count(_ name: String, enabled: Bool, variant: String) {
        withStripe { stripe in
            stripe.toggles.withLock { toggles in
                var counts = toggles[name] ?? .init()
                if enabled { counts.yes += 1 } else { counts.no += 1 }
                counts.variants[variant, default: 0] += 1
                toggles[name] = counts
            }
        }
    }

    /// Closes the open bucket and starts a new one; `nil` when nothing was counted (no bucket is sent).
    func takeBucket() -> UnleashMetricsBucket? {
        let stop = now()
        return start.withLock { start -> UnleashMetricsBucket? in
            var bucket = UnleashMetricsBucket(start: start, stop: stop, toggles: [:])
            for stripe in stripes {
                let counts = stripe.toggles.withLock { toggles in
                    defer { toggles = [:] }
                    return toggles
                }
                bucket.add(counts)
            }
            guard !bucket.toggles.isEmpty else { return nil }
            start = stop
            return bucket
        }
    }

    /// Puts the counts of a bucket that could not be sent back, so they go with the next one.
    func restore(_ bucket: UnleashMetricsBucket) {
        start.withLock { start in
            start = min(start, bucket.start)
            stripes[0].toggles.withLock { toggles in
                var merged = UnleashMetricsBucket(start: start, stop: start, toggles: toggles)
                merged.add(bucket.toggles)
                toggles = merged.toggles
            }
        }
    }
}
