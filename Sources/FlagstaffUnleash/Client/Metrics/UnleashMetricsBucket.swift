import Foundation

/// Usage counts of toggles over a time window, in the shape Unleash's metrics endpoints take:
/// `{"start":"…","stop":"…","toggles":{"name":{"yes":3,"no":1,"variants":{"blue":2}}}}`.
public struct UnleashMetricsBucket: Sendable, Hashable, Codable {
    /// The counts of one toggle.
    public struct ToggleCounts: Sendable, Hashable, Codable {
        /// Evaluations that found the toggle on.
        public var yes: Int
        /// Evaluations that found the toggle off.
        public var no: Int
        /// Variant lookups, by variant name.
        public var variants: [String: Int]

        /// Creates counts.
        /// - Parameters:
        ///   - yes: Evaluations that found the toggle on.
        ///   - no: Evaluations that found it off.
        ///   - variants: Variant lookups by name.
        public init(yes: Int = 0, no: Int = 0, variants: [String: Int] = [:]) {
            self.yes = yes
            self.no = no
            self.variants = variants
        }
    }

    /// When counting started.
    public var start: Date
    /// When the bucket was closed.
    public var stop: Date
    /// The counts, by toggle name.
    public var toggles: [String: ToggleCounts]

    /// Creates a bucket.
    /// - Parameters:
    ///   - start: When counting started.
    ///   - stop: When the bucket was closed.
    ///   - toggles: The counts by toggle name.
    public init(start: Date, stop: Date, toggles: [String: ToggleCounts]) {
        self.start = start
        self.stop = stop
        self.toggles = toggles
    }

    private enum CodingKeys: String, CodingKey { case start, stop, toggles }

    /// Decodes a bucket with ISO 8601 dates.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a field is missing or a date is not ISO 8601.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> Date {
            let text = try container.decode(String.self, forKey: key)
            guard let date = UnleashTimestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "expected an ISO 8601 date, found \"\(text)\"")
            }
            return date
        }
        start = try date(.start)
        stop = try date(.stop)
        toggles = try container.decode([String: ToggleCounts].self, forKey: .toggles)
    }

    /// Encodes the bucket with ISO 8601 dates (milliseconds, UTC).
    /// - Parameter encoder: The encoder.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(UnleashTimestamp.format(start), forKey: .start)
        try container.encode(UnleashTimestamp.format(stop), forKey: .stop)
        try container.encode(toggles, forKey: .toggles)
    }

    /// Adds counts to this bucket's (stripes of a closing bucket, or the counts of a post that failed).
    mutating func add(_ counts: [String: ToggleCounts]) {
        for (name, counts) in counts {
            var mine = toggles[name] ?? ToggleCounts()
            mine.yes += counts.yes
            mine.no += counts.no
            mine.variants.merge(counts.variants, uniquingKeysWith: +)
            toggles[name] = mine
        }
    }
}

/// ISO 8601 timestamps with milliseconds in UTC, as Unleash sends and expects them.
enum UnleashTimestamp {
    static func format(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC") ?? .current)
        )
    }

    static func parse(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
