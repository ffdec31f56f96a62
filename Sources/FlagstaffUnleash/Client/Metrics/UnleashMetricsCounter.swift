import Flagstaff
import Foundation

/// Counts toggle evaluations for the metrics endpoint, race-free.
///
/// Every count and the swap that closes a bucket happen under one lock, so no evaluation is lost or counted
/// twice while a bucket is being sent (the seed SDK's metrics race). Cost per count: one lock and one or two
/// dictionary updates.
final class UnleashMetricsCounter: Sendable {
    private struct Open {
        var start: Date
        var toggles: [String: UnleashMetricsBucket.ToggleCounts] = [:]
    }

    private let open: AnnotatedMutex<Open>
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
        open = AnnotatedMutex(Open(start: now()))
    }

    /// Counts one evaluation.
    func count(_ name: String, enabled: Bool) {
        open.withLock { open in
            if enabled {
                open.toggles[name, default: .init()].yes += 1
            } else {
                open.toggles[name, default: .init()].no += 1
            }
        }
    }

    /// Counts one variant lookup (the evaluation itself and the variant's name).
    func count(_ name: String, enabled: Bool, variant: String) {
        open.withLock { open in
            var counts = open.toggles[name] ?? .init()
            if enabled { counts.yes += 1 } else { counts.no += 1 }
            counts.variants[variant, default: 0] += 1
            open.toggles[name] = counts
        }
    }

    /// Closes the open bucket and starts a new one; `nil` when nothing was counted (no bucket is sent).
    func takeBucket() -> UnleashMetricsBucket? {
        let stop = now()
        return open.withLock { open -> UnleashMetricsBucket? in
            guard !open.toggles.isEmpty else { return nil }
            let bucket = UnleashMetricsBucket(start: open.start, stop: stop, toggles: open.toggles)
            open = Open(start: stop)
            return bucket
        }
    }

    /// Puts the counts of a bucket that could not be sent back, so they go with the next one.
    func restore(_ bucket: UnleashMetricsBucket) {
        open.withLock { open in
            var merged = UnleashMetricsBucket(start: open.start, stop: open.start, toggles: open.toggles)
            merged.absorb(bucket)
            open = Open(start: merged.start, toggles: merged.toggles)
        }
    }
}
