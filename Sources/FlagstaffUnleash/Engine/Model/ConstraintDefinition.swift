/// One constraint of a strategy or segment.
struct ConstraintDefinition: Sendable {
    var contextName = ""
    var `operator` = ""
    var values: [String] = []
    var value: String?
    var inverted = false
    var caseInsensitive = false
}
