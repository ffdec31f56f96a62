/// The body of `GET /api/client/features`: `{"version":2,"features":[…],"segments":[…]}`.
struct ClientFeaturesBody: Decodable, Sendable {
    let version: Int?
    let features: [FeatureDefinition]
    let segments: [SegmentDefinition]?
}
