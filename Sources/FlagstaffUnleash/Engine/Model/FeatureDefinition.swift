import Foundation

/// One feature toggle as the client API sends it.
struct FeatureDefinition: Sendable {
    var name = ""
    var enabled = false
    var description: String?
    var type: String?
    var project: String?
    var stale: Bool?
    var impressionData: Bool?
    var strategies: [StrategyDefinition] = []
    var variants: [VariantDefinition] = []
    var dependencies: [DependencyDefinition] = []
    /// The feature's JSON text as the body holds it, when the reader was asked to keep it (the server-side
    /// client persists it and compares it to tell which features an answer changed).
    var json: Data?
}
