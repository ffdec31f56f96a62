/// One delta event.
enum DeltaEvent: Decodable, Sendable {
    /// Replace everything with these features and segments.
    case hydration(features: [FeatureDefinition], segments: [SegmentDefinition])
    /// Add or replace one feature.
    case featureUpdated(FeatureDefinition)
    /// Remove one feature.
    case featureRemoved(name: String)
    /// Add or replace one segment.
    case segmentUpdated(SegmentDefinition)
    /// Remove one segment.
    case segmentRemoved(id: Int)
    /// An event type this engine does not know; ignored so newer servers do not break older clients.
    case unknown(type: String)

    private enum CodingKeys: String, CodingKey {
        case type, features, segments, feature, featureName, segment, segmentId
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "hydration":
            self = .hydration(
                features: try container.decodeIfPresent([FeatureDefinition].self, forKey: .features) ?? [],
                segments: try container.decodeIfPresent([SegmentDefinition].self, forKey: .segments) ?? [])
        case "feature-updated":
            self = .featureUpdated(try container.decode(FeatureDefinition.self, forKey: .feature))
        case "feature-removed":
            self = .featureRemoved(name: try container.decode(String.self, forKey: .featureName))
        case "segment-updated":
            self = .segmentUpdated(try container.decode(SegmentDefinition.self, forKey: .segment))
        case "segment-removed":
            self = .segmentRemoved(id: try container.decode(Int.self, forKey: .segmentId))
        default:
            self = .unknown(type: type)
        }
    }
}
