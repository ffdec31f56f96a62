/// One variant of a feature or strategy.
struct VariantDefinition: Sendable {
    /// A variant override: pins the variant for listed values of one context field.
    struct Override: Sendable {
        var contextName = ""
        var values: [String] = []
    }

    /// A variant payload.
    struct Payload: Sendable {
        var type = ""
        var value = ""
    }

    var name = ""
    var weight = 0
    var stickiness: String?
    var payload: Payload?
    var overrides: [Override] = []
}
