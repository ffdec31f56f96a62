import Flagstaff

/// One flag of a bulk evaluation, as the server answered it.
public struct OFREPFlag: Sendable, Hashable {
    /// The flag key.
    public var key: String
    /// The value as JSON (`true`, `20`, `"dark"`, `{"a":1}`), or `nil` when the server defers to the code
    /// default or reports an error.
    public var value: OverrideValue?
    /// The OpenFeature reason (`STATIC`, `TARGETING_MATCH`, …), if given.
    public var reason: String?
    /// The variant, if given.
    public var variant: String?
    /// The OpenFeature error code of a failed evaluation (`FLAG_NOT_FOUND`, `PARSE_ERROR`, …).
    public var errorCode: String?
    /// The server's explanation of the error.
    public var errorDetails: String?
    /// Where a Flagstaff server's value came from (`override`, `launch`, `default`, `build target`, …), from the
    /// flag's `metadata.source`; `nil` when the server did not say (another OFREP server).
    public var source: String?

    /// Creates a flag evaluation.
    public init(
        key: String, value: OverrideValue?, reason: String? = nil, variant: String? = nil, errorCode: String? = nil,
        errorDetails: String? = nil, source: String? = nil
    ) {
        self.source = source
        self.key = key
        self.value = value
        self.reason = reason
        self.variant = variant
        self.errorCode = errorCode
        self.errorDetails = errorDetails
    }
}
