/// The registry of an app's flags and settings, created from their declarations and read through them.
///
/// ```swift
/// struct AppFeatures: FeatureGroup {
///     let blueText = Feature()
///     let list = ListFeatures()                 // a FeatureGroup: keys "list.…"
///     let maxItems = Setting(default: 20, range: 1...100)
/// }
/// let features = FeatureRegistry(AppFeatures(), store: try FileOverrideStore(url: overridesURL))
/// features.blueText.enabled                     // the declarations' members, read through the registry
/// features.list.infiniteScroll.override = .enabled   // persisted in the store
/// features.search("scroll")                     // and everything an AnyFeatureRegistry offers
/// ```
///
/// At creation the registry discovers the members of `Features` by reflection (see ``FeatureGroup``), then loads
/// their overrides and starts watching the store like any ``AnyFeatureRegistry``. Members of the declarations are
/// reached as properties of the registry (`features.blueText`) through dynamic member lookup; a member whose name
/// is also a property of the registry (`name`, `store`, …) is reached through ``declarations``.
///
/// Thread-safety: all members may be used from any thread. Reading a flag never touches the store.
@dynamicMemberLookup
public final class FeatureRegistry<Features: FeatureGroup>: AnyFeatureRegistry, @unchecked Sendable {
    // @unchecked: adds only the immutable, Sendable `declarations` to AnyFeatureRegistry.

    /// The declarations the registry was created with; their members are the registry's.
    public let declarations: Features

    /// Creates a registry of the members declared in `declarations`.
    /// - Parameters:
    ///   - declarations: the root group: flags, settings and nested groups as stored properties.
    ///   - store: where overrides are persisted (default: in memory, lost at exit).
    ///   - options: display name (default: the root group's label, else its type name humanised:
    ///     `AppFeatures` → "App Features"), store watching, debug assertions.
    public init(
        _ declarations: Features, store: any OverrideStore = InMemoryOverrideStore(),
        options: RegistryOptions = RegistryOptions()
    ) {
        self.declarations = declarations
        let typeName = String(describing: Features.self)
        super.init(
            name: options.name ?? declarations.groupOptions.label ?? LabelFormatter.humanize(typeName), store: store,
            options: options)
        discoverDeclaredFeatures(in: declarations, rootName: typeName)
        finishSetUp()
    }

    /// A member of the declarations: `features.blueText` is `features.declarations.blueText`.
    @inlinable
    public subscript<Member>(dynamicMember keyPath: KeyPath<Features, Member>) -> Member {
        declarations[keyPath: keyPath]
    }
}
