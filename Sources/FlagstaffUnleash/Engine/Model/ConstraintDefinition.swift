/// One constraint of a strategy or segment.
struct ConstraintDefinition: Decodable, Sendable {
    let contextName: String
    let `operator`: String
    let values: [String]
    let value: String?
    let inverted: Bool
    let caseInsensitive: Bool

    private enum CodingKeys: String, CodingKey {
        case contextName, `operator`, values, value, inverted, caseInsensitive
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contextName = try container.decode(String.self, forKey: .contextName)
        `operator` = try container.decode(String.self, forKey: .operator)
        values = try container.decodeIfPresent([LenientString].self, forKey: .values)?.map(\.value) ?? []
        value = try container.decodeIfPresent(LenientString.self, forKey: .value)?.value
        inverted = try container.decodeIfPresent(Bool.self, forKey: .inverted) ?? false
        caseInsensitive = try container.decodeIfPresent(Bool.self, forKey: .caseInsensitive) ?? false
    }
}
