import Flagstaff

/// One flag as loaded: its variants, default variant, compiled targeting and merged metadata.
struct FlagdFlag: Sendable {
    /// What the flag's targeting is.
    enum Targeting: Sendable {
        /// None (absent, `null` or `{}`): the default variant, reason `STATIC`.
        case none
        /// A compiled rule.
        case rule(Rule)
        /// A targeting that cannot be used: every evaluation fails with `PARSE_ERROR` and this message.
        case broken(String)
    }

    let key: String
    let enabled: Bool
    let variants: [String: JSONValue]
    /// The default variant's name (`nil` when there is none: absent, `null` or `""`).
    let defaultVariant: String?
    let targeting: Targeting
    /// The flag's metadata over its flag set's.
    let metadata: [String: JSONValue]
    /// The targeting as written, for tools that show it.
    let writtenTargeting: JSONValue?
}
