/// An immutable, fully compiled engine state: what evaluations read.
///
/// It also keeps the definitions it was built from, so delta events can be applied to them and a new state built.
final class CompiledState: Sendable {
    let features: FeatureTable
    /// Feature names in the order the server sent them (new features from deltas at the end).
    let order: [String]
    let definitions: [String: FeatureDefinition]
    let segments: [Int: SegmentDefinition]
    let warnings: [String]

    init(
        features: [String: CompiledFeature], order: [String], definitions: [String: FeatureDefinition],
        segments: [Int: SegmentDefinition], warnings: [String]
    ) {
        self.features = FeatureTable(features)
        self.order = order
        self.definitions = definitions
        self.segments = segments
        self.warnings = warnings
    }

    /// The empty state a new engine starts with.
    static let empty = CompiledState(features: [:], order: [], definitions: [:], segments: [:], warnings: [])
}
