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
open class FeatureGroup: @unchecked Sendable {
    // @unchecked: mutable state is behind a Mutex.

    private let explicitKey: String?
    private let explicitLabel: String?
    private let info = AnnotatedMutex(GroupInfo())

    /// Creates a group.
    /// - Parameters:
    ///   - key: the key prefix component, or `nil` to use the property name.
    ///   - label: the display label, or `nil` to humanise the key.
    ///   - description: a human description.
    public init(key: String? = nil, label: String? = nil, description: String? = nil) {
        self.explicitKey = key
        self.explicitLabel = label
        info.withLock { $0.description = description }
    }

    /// A human description of the group.
    public var description: String? { info.withLock { $0.description } }

    /// The group's own key component (`list` in `list.infiniteScroll`).
    public var key: String { info.withLock { $0.key } }
    /// The display label.
    public var label: String { info.withLock { $0.label } }
    /// The labels of this group and its ancestors, outermost first.
    public var labelPath: [String] { info.withLock { $0.labelPath } }
    /// The keys of this group and its ancestors, outermost first.
    public var keyPath: [String] { info.withLock { $0.keyPath } }
    /// The flags directly in this group, in declaration order.
    public var features: [AnyFeature] { info.withLock { $0.features } }
    /// The groups directly inside this one, in declaration order.
    public var subgroups: [FeatureGroup] { info.withLock { $0.subgroups } }
    /// Every flag in this group and its subgroups, in declaration order.
    public var allFeatures: [AnyFeature] {
        let (own, subs) = info.withLock { ($0.features, $0.subgroups) }
        return own + subs.flatMap(\.allFeatures)
    }

    func assign(propertyName: String, parent: FeatureGroup?) {
        let key = explicitKey ?? propertyName
        let (parentKeys, parentLabels) = parent.map { ($0.keyPath, $0.labelPath) } ?? ([], [])
        info.withLock {
            $0.key = key
            $0.label = explicitLabel ?? LabelFormatter.humanize(key)
            $0.keyPath = parentKeys + [key]
            $0.labelPath = parentLabels + [$0.label]
        }
    }

    func configureFromManifest(label: String?, description: String?) {
        info.withLock {
            if let label {
                $0.label = label
                $0.labelPath[$0.labelPath.count - 1] = label
            }
            if let description { $0.description = description }
        }
    }

    func append(feature: AnyFeature) { info.withLock { $0.features.append(feature) } }
    func append(features: [AnyFeature]) { info.withLock { $0.features.append(contentsOf: features) } }
    func append(subgroup: FeatureGroup) { info.withLock { $0.subgroups.append(subgroup) } }
    func subgroup(withKey key: String) -> FeatureGroup? { info.withLock { $0.subgroups.first { $0.key == key } } }
}

private struct GroupInfo: @unchecked Sendable {
    // @unchecked: lives only inside FeatureGroup's Mutex.
    var key = ""
    var label = ""
    var description: String?
    var keyPath: [String] = []
    var labelPath: [String] = [""]
    var features: [AnyFeature] = []
    var subgroups: [FeatureGroup] = []
}
