/// A dependency on a parent feature: the parent must be on (or off, when `enabled` is `false`), and, when
/// `variants` is non-empty, resolve to one of those variants.
struct DependencyDefinition: Sendable {
    var feature = ""
    var enabled = true
    var variants: [String] = []
}
