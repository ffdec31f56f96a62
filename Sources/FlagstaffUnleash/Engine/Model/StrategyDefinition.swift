/// One activation strategy of a feature.
struct StrategyDefinition: Sendable {
    var name = ""
    var parameters: [String: String] = [:]
    var constraints: [ConstraintDefinition] = []
    var segments: [Int] = []
    var variants: [VariantDefinition] = []
}
