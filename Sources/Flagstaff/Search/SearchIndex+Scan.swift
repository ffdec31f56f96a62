import Dispatch
import Foundation

extension SearchIndex {
    /// Below this many candidates a search scans on the calling thread; above it the candidates are split
    /// into contiguous chunks matched on all cores (docs/performance.md, "Console search at 100,000 flags").
    static let parallelThreshold = 16_384

    /// Matches the query against the candidates (all entries when `nil`), keeping those in `scope`.
    /// - Parameters:
    ///   - candidates: the matches of a shorter query this one extends, with their buckets as hints.
    ///   - parallelAbove: the candidate count from which the scan is split over the cores.
    /// - Returns: the matching entries in candidate order, and for each its sort bucket (``SearchBucket``).
    func scan(
        _ query: FoldedQuery, candidates: SearchCandidates?, scope: SearchScope,
        parallelAbove: Int = parallelThreshold
    ) -> (matched: [Int32], buckets: [UInt16]) {
        let count = candidates?.entries.count ?? features.count
        guard count >= parallelAbove, count > 0 else {
            return scan(query, candidates: candidates, range: 0..<count, scope: scope)
        }
        // More chunks than cores, so a core slowed by other work does not hold up the whole search.
        let chunks = max(2, ProcessInfo.processInfo.activeProcessorCount) * 4
        let results = AnnotatedMutex([(matched: [Int32], buckets: [UInt16])](repeating: ([], []), count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
            let part = scan(query, candidates: candidates, range: range, scope: scope)
            results.withLock { $0[chunk] = part }
        }
        let parts = results.withLock { $0 }
        var matched: [Int32] = []
        var buckets: [UInt16] = []
        let total = parts.reduce(0) { $0 + $1.matched.count }
        matched.reserveCapacity(total)
        buckets.reserveCapacity(total)
        for part in parts {
            matched.append(contentsOf: part.matched)
            buckets.append(contentsOf: part.buckets)
        }
        return (matched, buckets)
    }

    private func scan(
        _ query: FoldedQuery, candidates: SearchCandidates?, range: Range<Int>,
        scope: SearchScope
    ) -> (matched: [Int32], buckets: [UInt16]) {
        var matched: [Int32] = []
        var buckets: [UInt16] = []
        withMatcher(query) { matcher in
            /// Keeps `entry` if it is in scope and matches; `hint` is its bucket for the query this one extends.
            func consider(_ entry: Int, hint: UInt16?) {
                if scope != .all && !scope.includes(features[entry]) { return }
                let found =
                    hint.map { matcher.bestMatch(entry: entry, extending: $0) } ?? matcher.bestMatch(entry: entry)
                guard let best = found else { return }
                matched.append(Int32(entry))
                buckets.append(SearchBucket.make(kind: best.kind, field: best.field, position: best.position))
            }
            if let candidates {
                candidates.entries.withUnsafeBufferPointer { entries in
                    candidates.hints.withUnsafeBufferPointer { hints in
                        for position in range { consider(Int(entries[position]), hint: hints[position]) }
                    }
                }
            } else {
                for entry in range { consider(entry, hint: nil) }
            }
        }
        return (matched, buckets)
    }
}

/// The entries a narrowing search rescans: the matches of a shorter query the new one extends, in
/// declaration order, with each one's bucket for that query.
struct SearchCandidates {
    let entries: [Int32]
    let hints: [UInt16]
}
