extension Dictionary where Key == String {
    /// The value for `key` spelled with exactly the same Unicode scalars.
    ///
    /// `String` keys compare by canonical equivalence (`"é"` finds `"e\u{301}"`); flagd compares names byte by byte,
    /// so a variant, flag, context member or object member named in one normalisation does not match the other.
    @inline(__always) subscript(exactly key: String) -> Value? {
        guard let index = index(forKey: key) else { return nil }
        let entry = self[index]
        return entry.key.utf8.elementsEqual(key.utf8) ? entry.value : nil
    }
}
