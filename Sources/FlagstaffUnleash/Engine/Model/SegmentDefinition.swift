import Foundation

/// A global segment: a named, reusable list of constraints that strategies refer to by id.
struct SegmentDefinition: Sendable {
    var id = 0
    var constraints: [ConstraintDefinition] = []
    /// The segment's JSON text as the body holds it, when the reader was asked to keep it.
    var json: Data?
}
