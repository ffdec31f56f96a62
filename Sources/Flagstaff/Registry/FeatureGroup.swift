/// Declares flags, settings and nested groups as stored properties: an app's root declarations and every group
/// nested in them.
///
/// ```swift
/// struct ListFeatures: FeatureGroup {
///     let infiniteScroll = Feature(description: "Load more rows at the bottom")
/// }
/// struct AppFeatures: FeatureGroup {
///     let blueText = Feature()
///     let list = ListFeatures()                   // keys "list.…"; groups nest to any depth
///     let maxItems = Setting(default: 20, range: 1...100)
///     @FeatureFlag var darkMode = false
/// }
/// let features = FeatureRegistry(AppFeatures())
/// features.list.infiniteScroll.enabled
/// ```
///
/// A registry discovers the members by reflection when it is created: each stored property that is a flag
/// (`Feature`, `DynamicFeature`, …), a `Setting`, an `@FeatureFlag` or a nested `FeatureGroup`, in declaration
/// order (superclass properties first, for a class). Other stored properties are ignored. A member's key is its
/// property name, prefixed by the keys of the groups around it (`list.infiniteScroll`), unless it has an explicit
/// key.
///
/// A struct of `let` members is `Sendable` by construction (the members are thread-safe objects), so a
/// declaration needs no unsafe annotation. A final class of `let` members works too.
///
/// A nested group is named after the property that holds it; ``groupOptions`` changes its key, label and
/// description:
///
/// ```swift
/// struct CheckoutFeatures: FeatureGroup {
///     let groupOptions = GroupOptions(label: "Checkout", description: "Paying for an order")
///     let applePay = Feature()
/// }
/// ```
public protocol FeatureGroup: Sendable {
    /// How the group is named when it is nested in another: its key, label and description.
    ///
    /// The default names it after the property that holds it (key = property name, label = the key humanised,
    /// no description). For the root group of a registry only the label is used: it is the registry's name
    /// unless ``RegistryOptions/name`` is given.
    var groupOptions: GroupOptions { get }
}

extension FeatureGroup {
    /// No explicit naming: the group is named after the property that holds it.
    public var groupOptions: GroupOptions { GroupOptions() }
}

/// The naming of a ``FeatureGroup``: each part left `nil` is derived from the property that holds the group.
public struct GroupOptions: Sendable, Hashable {
    /// The group's key component (`list` in `list.infiniteScroll`), or `nil` for the property name.
    public var key: String?
    /// The display label, or `nil` to humanise the key (`newCheckout` → "New Checkout").
    public var label: String?
    /// A human description shown in the console and the CLI.
    public var description: String?

    /// Creates group options.
    /// - Parameters:
    ///   - key: the key component, or `nil` for the property name.
    ///   - label: the display label, or `nil` to humanise the key.
    ///   - description: a human description.
    public init(key: String? = nil, label: String? = nil, description: String? = nil) {
        self.key = key
        self.label = label
        self.description = description
    }
}
