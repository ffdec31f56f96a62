import Flagstaff

/// One flag as loaded: its variants, default variant, compiled targeting and merged metadata.
///
/// A class, so that an evaluation takes one reference from the definitions' table rather than a copy of every
/// field (measured: the static case went from 284 ns to the figure in docs/performance.md).
final class FlagdFlag: Sendable {
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
    /// The default variant's value, when the default variant names one.
    let defaultValue: JSONValue?

    init(
        key: String, enabled: Bool, variants: [String: JSONValue], defaultVariant: String?, targeting: Targeting,
        metadata: [String: JSONValue], writtenTargeting: JSONValue?
    ) {
        self.key = key
        self.enabled = enabled
        self.variants = variants
        self.defaultVariant = defaultVariant
        self.targeting = targeting
        self.metadata = metadata
        self.writtenTargeting = writtenTargeting
        defaultValue = defaultVariant.flatMap { variants[exactly: $0] }
    }
}
