/// The nearest key to a mistyped one, for the "did you mean" of messages about unknown keys.
package enum KeySuggestion {
    /// The key closest to `typed`, or `nil` when none is close.
    ///
    /// In order: the same key in another case (`bluetext` → `blueText`), the one key whose last component it is
    /// (`infiniteScroll` → `list.infiniteScroll`), else the key at the smallest edit distance (ignoring case) when
    /// that distance is at most a third of the typed length (at least 1, at most 3); ties go to the key that
    /// sorts first. Runs only for keys that are unknown, never on a read.
    /// - Parameters:
    ///   - typed: the unknown key.
    ///   - keys: the keys that exist.
    /// - Returns: the suggested key.
    package static func nearest(to typed: String, among keys: [String]) -> String? {
        let lowered = typed.lowercased()
        guard !lowered.isEmpty, lowered.count <= 256 else { return nil }
        if let sameLetters = keys.filter({ $0.lowercased() == lowered }).min() { return sameLetters }
        let lastComponent = keys.filter { $0.lowercased().hasSuffix("." + lowered) }
        if lastComponent.count == 1 { return lastComponent[0] }
        let characters = Array(lowered)
        let limit = max(1, min(3, characters.count / 3))
        var best: (key: String, distance: Int)?
        for key in keys {
            let distance = editDistance(characters, Array(key.lowercased()), limit: limit)
            guard distance <= limit else { continue }
            if let current = best, current.distance < distance || (current.distance == distance && current.key < key) {
                continue
            }
            best = (key, distance)
        }
        return best?.key
    }

    /// The Levenshtein distance, or `limit + 1` as soon as it must exceed `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        var current = previous
        for (i, ca) in a.enumerated() {
            current[0] = i + 1
            var rowMinimum = current[0]
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
                rowMinimum = min(rowMinimum, current[j + 1])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
