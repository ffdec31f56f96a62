/// Sorting many strings by their UTF-8 bytes: the order of `<` for strings in Unicode normalization form C (every
/// key a person or a program writes in practice), at a fraction of its cost.
///
/// The strings' bytes are copied once into one buffer, and positions into it are sorted with `memcmp`: no
/// reference count is touched and no string is compared scalar by scalar (figures: docs/performance.md, "One write
/// path").
package enum ByteOrderSort {
    /// One string's bytes in the shared buffer, with its position in the input.
    private struct Span {
        var start: UInt32
        var count: UInt32
        var index: UInt32
    }

    /// Compares two strings by the bytes of their UTF-8: negative when `a` comes first, zero when equal.
    package static func compare(_ a: String, _ b: String) -> Int {
        let result = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Int in
                let shared = min(x.count, y.count)
                if shared > 0, let p = x.baseAddress, let q = y.baseAddress {
                    let order = Platform.compareBytes(p, q, count: shared)
                    if order != 0 { return Int(order) }
                }
                return x.count - y.count
            }
        }
        if let result = result ?? nil { return result }
        if a == b { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }

    /// The positions of `strings` in the byte order of their UTF-8.
    /// - Parameter strings: the strings.
    /// - Returns: indices into `strings`, smallest string first (equal strings keep their input order).
    package static func sortedIndices(_ strings: [String]) -> [Int] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(strings.count * 24)
        var spans: [Span] = []
        spans.reserveCapacity(strings.count)
        for (index, string) in strings.enumerated() {
            let start = bytes.count
            var string = string
            string.withUTF8 { bytes.append(contentsOf: $0) }
            spans.append(Span(start: UInt32(start), count: UInt32(bytes.count - start), index: UInt32(index)))
        }
        guard bytes.count < Int(UInt32.max) else {
            // Over 4 GiB of text: not a store's keys. Sort the ordinary way.
            return strings.indices.sorted { Array(strings[$0].utf8).lexicographicallyPrecedes(strings[$1].utf8) }
        }
        bytes.withUnsafeBufferPointer { buffer in
            spans.withUnsafeMutableBufferPointer { spans in
                guard let base = buffer.baseAddress else { return }
                sort(spans, 0, spans.count, depth: 0, base)
            }
        }
        return spans.map { Int($0.index) }
    }

    /// Multikey quicksort (Bentley and Sedgewick): partitions `spans[low..<high]`, whose first `depth` bytes are
    /// equal, three ways on the byte at `depth` (a string that ends sorts first), and sorts each part; the equal
    /// part moves on to the next byte. Each byte of a key is read about once per level, instead of whole keys
    /// being compared again and again. Short ranges are finished by insertion with `memcmp`.
    private static func sort(
        _ spans: UnsafeMutableBufferPointer<Span>, _ low: Int, _ high: Int, depth: Int, _ base: UnsafePointer<UInt8>
    ) {
        var low = low
        var high = high
        var depth = depth
        while high - low > 12 {
            func byte(_ position: Int) -> Int {
                let span = spans[position]
                return depth < Int(span.count) ? Int(base[Int(span.start) + depth]) : -1
            }
            // The median of three bytes as the pivot.
            let (a, b, c) = (byte(low), byte((low + high) / 2), byte(high - 1))
            let pivot = max(min(a, b), min(max(a, b), c))
            var lessEnd = low
            var greaterStart = high
            var position = low
            while position < greaterStart {
                let value = byte(position)
                if value < pivot {
                    spans.swapAt(lessEnd, position)
                    lessEnd += 1
                    position += 1
                } else if value > pivot {
                    greaterStart -= 1
                    spans.swapAt(position, greaterStart)
                } else {
                    position += 1
                }
            }
            sort(spans, low, lessEnd, depth: depth, base)
            sort(spans, greaterStart, high, depth: depth, base)
            guard pivot >= 0 else {
                // Strings that all end here are equal: keep their input order.
                finish(spans, lessEnd, greaterStart, depth: depth, base)
                return
            }
            low = lessEnd
            high = greaterStart
            depth += 1
        }
        finish(spans, low, high, depth: depth, base)
    }

    /// Insertion sort of a short range whose first `depth` bytes are equal (input order breaks ties).
    private static func finish(
        _ spans: UnsafeMutableBufferPointer<Span>, _ low: Int, _ high: Int, depth: Int, _ base: UnsafePointer<UInt8>
    ) {
        guard high - low > 1 else { return }
        func precedes(_ a: Span, _ b: Span) -> Bool {
            let shared = Int(min(a.count, b.count)) - depth
            let order =
                shared <= 0
                ? 0 : Platform.compareBytes(base + Int(a.start) + depth, base + Int(b.start) + depth, count: shared)
            if order != 0 { return order < 0 }
            return a.count != b.count ? a.count < b.count : a.index < b.index
        }
        for position in (low + 1)..<high {
            let span = spans[position]
            var hole = position
            while hole > low, precedes(span, spans[hole - 1]) {
                spans[hole] = spans[hole - 1]
                hole -= 1
            }
            spans[hole] = span
        }
    }

    /// `strings` in the byte order of their UTF-8.
    package static func sorted(_ strings: [String]) -> [String] {
        sortedIndices(strings).map { strings[$0] }
    }
}
