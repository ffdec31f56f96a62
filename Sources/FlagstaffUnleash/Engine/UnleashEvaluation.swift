/// The full answer for one flag and context: on or off, the variant, and why.
///
/// ``UnleashEngine/evaluate(_:context:)`` computes both answers from one pass over the same state, so they always
/// agree, even for strategies that pick at random; calling ``UnleashEngine/isEnabled(_:context:)`` and
/// ``UnleashEngine/variant(_:context:)`` separately could, for a random rollout, give an "on" flag an "off" variant.
public struct UnleashEvaluation: Sendable, Hashable {
    /// The flag's name.
    public let flag: String
    /// Whether the flag is on.
    public let enabled: Bool
    /// The variant (see ``UnleashVariant``).
    public let variant: UnleashVariant
    /// Why, in one line: which strategy matched, or what kept the flag off.
    public let reason: String
    /// The 0-based index of the strategy that turned the flag on, when one did.
    public let matchedStrategy: Int?
}
