import Flagstaff

/// Appends compact JSON to a byte buffer: the bodies are rendered by hand, in a fixed member order, so that the
/// same values always give the same bytes (and ETag) and a 1,000-flag body takes no Foundation round trip.
struct JSONBodyWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// Raw JSON text (already valid JSON, or punctuation).
    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// A JSON string.
    mutating func string(_ text: String) { raw(JSONText.quoted(text)) }

    /// `"name":` (with a leading comma unless `first`).
    mutating func member(_ name: String, first: Bool = false) {
        if !first { raw(",") }
        string(name)
        raw(":")
    }
}
