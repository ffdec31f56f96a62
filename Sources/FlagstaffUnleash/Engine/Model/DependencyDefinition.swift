/// A dependency on a parent feature: the parent must be on (or off, when `enabled` is `false`), and, when
/// `variants` is non-empty, resolve to one of those variants.
struct DependencyDefinition: Decodable, Sendable {
    let feature: String
    let enabled: Bool
    let variants: [String]

    private enum CodingKeys: String, CodingKey { case feature, enabled, variants }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        feature = try container.decode(String.self, forKey: .feature)
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        variants = try container.decodeIfPresent([String].self, forKey: .variants) ?? []
    }
}
