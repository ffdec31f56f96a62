/// One delta event.
enum DeltaEvent: Sendable {
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
}
