import Synchronization

/// A group of a registry as tools see it: its key, label and paths, and the members and groups in it.
///
/// The registry makes one for each ``FeatureGroup`` it discovers in the declarations, and for each group of a
/// manifest or a runtime registration; apps declare groups as ``FeatureGroup`` values, never as this class. The
/// console, the CLI, manifests and the server read the tree through ``AnyFeatureRegistry/groups`` and
/// ``subgroups``.
///
/// Thread-safety: every member may be used from any thread. Reading the naming (key, label, paths, description)
/// takes no lock; the member lists are behind a lock.
public final class RegistryGroup: Sendable {
    private let explicitKey: String?
    private let explicitLabel: String?
    private let naming: PublishedReference<GroupNaming>
    private let members = AnnotatedMutex(GroupMembers())

    /// Creates a group named by `options`; ``assign(propertyName:parent:)`` completes its naming.
    init(options: GroupOptions = GroupOptions()) {
        self.explicitKey = options.key
        self.explicitLabel = options.label
        naming = PublishedReference(
            GroupNaming(key: "", label: "", keyPath: [], labelPath: [""], description: options.description))
    }

    private func read<R>(_ body: (GroupNaming) -> R) -> R {
        naming.read(body)
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
    public var subgroups: [RegistryGroup] { members.withLock { $0.subgroups } }
    /// Every flag in this group and its subgroups, in declaration order.
    public var allFeatures: [AnyFeature] {
        let (own, subs) = members.withLock { ($0.features, $0.subgroups) }
        return own + subs.flatMap(\.allFeatures)
    }

    func assign(propertyName: String, parent: RegistryGroup?) {
        let key = explicitKey ?? propertyName
        let label = explicitLabel ?? LabelFormatter.humanize(key)
        let (parentKeys, parentLabels) = parent.map { ($0.keyPath, $0.labelPath) } ?? ([], [])
        naming.update { current in
            (
                GroupNaming(
                    key: key, label: label, keyPath: parentKeys + [key], labelPath: parentLabels + [label],
                    description: current.description), ()
            )
        }
    }

    func configureFromManifest(label: String?, description: String?) {
        naming.update { old in
            var labelPath = old.labelPath
            if let label { labelPath[labelPath.count - 1] = label }
            let next = GroupNaming(
                key: old.key, label: label ?? old.label, keyPath: old.keyPath, labelPath: labelPath,
                description: description ?? old.description)
            return (next, ())
        }
    }

    func append(feature: AnyFeature) { members.withLock { $0.features.append(feature) } }
    func append(features: [AnyFeature]) { members.withLock { $0.features.append(contentsOf: features) } }
    func append(subgroup: RegistryGroup) { members.withLock { $0.subgroups.append(subgroup) } }
    func subgroup(withKey key: String) -> RegistryGroup? { members.withLock { $0.subgroups.first { $0.key == key } } }
}

/// A group's names, replaced (never changed) when the registry assigns them or a manifest relabels the group.
private final class GroupNaming: Sendable {
    let key: String
    let label: String
    let keyPath: [String]
    let labelPath: [String]
    let description: String?

    init(key: String, label: String, keyPath: [String], labelPath: [String], description: String?) {
        self.key = key
        self.label = label
        self.keyPath = keyPath
        self.labelPath = labelPath
        self.description = description
    }
}

private struct GroupMembers: @unchecked Sendable {
    // @unchecked: lives only inside RegistryGroup's AnnotatedMutex.
    var features: [AnyFeature] = []
    var subgroups: [RegistryGroup] = []
}
