/// A global segment: a named, reusable list of constraints that strategies refer to by id.
struct SegmentDefinition: Decodable, Sendable {
    let id: Int
    let constraints: [ConstraintDefinition]

    private enum CodingKeys: String, CodingKey { case id, constraints }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        constraints = try container.decodeIfPresent([ConstraintDefinition].self, forKey: .constraints) ?? []
    }
}
