import Synchronization

/// A named group of flags inside a registry; groups nest to any depth.
///
/// ```swift
/// final class ListFeatures: FeatureGroup {
///     let infiniteScroll = Feature(description: "Load more rows at the bottom")
/// }
/// final class AppFeatures: FeatureRegistry {
///     let list = ListFeatures()   // flags get the key prefix "list."
/// }
/// ```
/// A group's key is its property name unless `key:` is given; its label is the humanised key unless
/// `label:` is given. The registry fills in the key path, features and subgroups when it discovers the group.
///
/// Thread-safety: every member may be used from any thread. The naming (key, label, paths, description) is an
/// immutable object published through an atomic pointer, so reading it takes no lock; the member lists are
/// behind a lock.
open class FeatureGroup: @unchecked Sendable {
    // @unchecked: mutable state is the atomic naming pointer and the member lists behind an AnnotatedMutex.

    private let explicitKey: String?
    private let explicitLabel: String?
    private let naming = ChainedReference<GroupNaming>()
    private let members = AnnotatedMutex(GroupMembers())

    /// Creates a group.
    /// - Parameters:
    ///   - key: the key prefix component, or `nil` to use the property name.
    ///   - label: the display label, or `nil` to humanise the key.
    ///   - description: a human description.
    public init(key: String? = nil, label: String? = nil, description: String? = nil) {
        self.explicitKey = key
        self.explicitLabel = label
        naming.replace { _ in
            GroupNaming(key: "", label: "", keyPath: [], labelPath: [""], description: description, previous: nil)
        }
    }

    private func read<R>(_ body: (GroupNaming) -> R) -> R {
        // Never nil: init publishes the first naming.
        naming.withCurrent { body($0 ?? GroupNaming.unnamed) }
    }

    /// A human description of the group.
    public var description: String? { read { $0.description } }

    /// The group's own key component (`list` in `list.infiniteScroll`).
    public var key: String { read { $0.key } }
    /// The display label.
    public var label: String { read { $0.label } }
    /// The labels of this group and its ancestors, outermost first.
    public var labelPath: [String] { read { $0.labelPath } }
    /// The keys of this group and its ancestors, outermost first.
    public var keyPath: [String] { read { $0.keyPath } }
    /// The flags directly in this group, in declaration order.
    public var features: [AnyFeature] { members.withLock { $0.features } }
    /// The groups directly inside this one, in declaration order.
    public var subgroups: [FeatureGroup] { members.withLock { $0.subgroups } }
    /// Every flag in this group and its subgroups, in declaration order.
    public var allFeatures: [AnyFeature] {
        let (own, subs) = members.withLock { ($0.features, $0.subgroups) }
        return own + subs.flatMap(\.allFeatures)
    }

    func assign(propertyName: String, parent: FeatureGroup?) {
        let key = explicitKey ?? propertyName
        let label = explicitLabel ?? LabelFormatter.humanize(key)
        let (parentKeys, parentLabels) = parent.map { ($0.keyPath, $0.labelPath) } ?? ([], [])
        naming.replace { current in
            GroupNaming(
                key: key, label: label, keyPath: parentKeys + [key], labelPath: parentLabels + [label],
                description: current?.description, previous: current)
        }
    }

    func configureFromManifest(label: String?, description: String?) {
        naming.replace { current in
            let old = current ?? GroupNaming.unnamed
            var labelPath = old.labelPath
            if let label { labelPath[labelPath.count - 1] = label }
            return GroupNaming(
                key: old.key, label: label ?? old.label, keyPath: old.keyPath, labelPath: labelPath,
                description: description ?? old.description, previous: current)
        }
    }

    func append(feature: AnyFeature) { members.withLock { $0.features.append(feature) } }
    func append(features: [AnyFeature]) { members.withLock { $0.features.append(contentsOf: features) } }
    func append(subgroup: FeatureGroup) { members.withLock { $0.subgroups.append(subgroup) } }
    func subgroup(withKey key: String) -> FeatureGroup? { members.withLock { $0.subgroups.first { $0.key == key } } }
}

/// A group's names, replaced (never changed) when the registry assigns them or a manifest relabels the group.
private final class GroupNaming: Sendable {
    static let unnamed = GroupNaming(key: "", label: "", keyPath: [], labelPath: [""], description: nil, previous: nil)

    let key: String
    let label: String
    let keyPath: [String]
    let labelPath: [String]
    let description: String?
    /// The naming this one replaced, kept alive for readers that loaded it before the swap.
    private let previous: GroupNaming?

    init(
        key: String, label: String, keyPath: [String], labelPath: [String], description: String?, previous: GroupNaming?
    ) {
        self.key = key
        self.label = label
        self.keyPath = keyPath
        self.labelPath = labelPath
        self.description = description
        self.previous = previous
    }
}

private struct GroupMembers: @unchecked Sendable {
    // @unchecked: lives only inside FeatureGroup's AnnotatedMutex.
    var features: [AnyFeature] = []
    var subgroups: [FeatureGroup] = []
}
