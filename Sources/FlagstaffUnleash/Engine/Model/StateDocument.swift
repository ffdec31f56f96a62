/// What `takeState` accepts: a full `/api/client/features` body or a delta body, read by
/// `JSONReader.readUnleashState(keepingJSON:)`.
enum StateDocument: Sendable {
    /// `{"version":2,"features":[…],"segments":[…]}`: replaces the whole state.
    case full(features: [FeatureDefinition], segments: [SegmentDefinition])
    /// `{"events":[{"eventId":1,"type":"hydration",…}, …]}`: applied in order to the current state.
    case delta([DeltaEvent])
}
