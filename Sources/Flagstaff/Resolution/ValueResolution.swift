import Foundation

/// Any member's effective value and why, with values as JSON (``OverrideValue``): what the console's detail
/// pane and `flagstaff get --explain` show for flags and typed settings alike.
public struct ValueResolution: Sendable, Hashable {
    /// The effective value.
    public var value: OverrideValue
    /// The source that decided it.
    public var source: ResolutionSource
    /// Every source considered, highest precedence first.
    public var chain: [ValueResolutionStep]

    /// Creates a resolution.
    public init(value: OverrideValue, source: ResolutionSource, chain: [ValueResolutionStep]) {
        self.value = value
        self.source = source
        self.chain = chain
    }

    /// A flag's resolution with `"on"`/`"off"` values.
    /// - Parameter resolution: the flag's resolution.
    public init(_ resolution: Resolution) {
        self.init(
            value: resolution.value ? .on : .off, source: resolution.source,
            chain: resolution.chain.map {
                ValueResolutionStep(source: $0.source, value: $0.value.map { $0 ? .on : .off }, detail: $0.detail)
            })
    }
}

/// One source considered while resolving a value, with the value it offered (`nil` when it offered none).
public struct ValueResolutionStep: Sendable, Hashable {
    /// The source.
    public var source: ResolutionSource
    /// The value this source offered, or `nil`.
    public var value: OverrideValue?
    /// A human note, e.g. `not overridden` or `remote value "12abc" is not an integer`.
    public var detail: String?
    /// For the override step: when the override stops applying, if it expires.
    public var expiresAt: Date?

    /// Creates a step.
    public init(source: ResolutionSource, value: OverrideValue?, detail: String? = nil, expiresAt: Date? = nil) {
        self.source = source
        self.value = value
        self.detail = detail
        self.expiresAt = expiresAt
    }
}

/// The inclusive bounds of a number setting, as JSON numbers.
package struct ValueRange: Sendable, Hashable {
    /// The smallest value allowed.
    package var lower: OverrideValue
    /// The largest value allowed.
    package var upper: OverrideValue

    /// Creates bounds.
    package init(lower: OverrideValue, upper: OverrideValue) {
        self.lower = lower
        self.upper = upper
    }
}
