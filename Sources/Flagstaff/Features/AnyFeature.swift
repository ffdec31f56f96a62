import Foundation
import Synchronization

/// What every kind of flag has in common: identity (key, label, group), the override, the effective value
/// and the explanation of that value.
///
/// `Feature`, `DynamicFeature` and `RemoteFeature` (in `FlagstaffRemote`) are subclasses. A new kind of flag
/// subclasses `AnyFeature` and overrides ``computedDefault`` (the fast value, read on every `enabled`) and
/// ``resolveDefault()`` (the same value with its source, for explanations), and ``kind``.
///
/// Thread-safety: every member may be used from any thread. The override lives in an atomic cell, so
/// ``enabled`` is a couple of atomic loads and a branch: no lock, no I/O, no allocation. The identity (key,
/// label, group, registry) is an immutable object published through an atomic pointer, so reading it takes no
/// lock either.
open class AnyFeature: @unchecked Sendable {
    // @unchecked: the mutable state is the atomic override/launch cells and the atomic identity pointer.
    // Everything else is immutable.

    /// The key given at declaration, if any; it wins over the property-derived key and gets no group prefix.
    public let explicitKey: String?
    /// A human description shown in the console and the CLI.
    public let description: String?
    /// Whether a change of this flag only takes effect after the app restarts.
    public let requiresRestart: Bool

    let overrideCell = Atomic<UInt8>(0)
    let launchCell = Atomic<UInt8>(0)  // 0 = not yet launched, 1 = on, 2 = off
    private let explicitLabel: String?
    /// The identity given by discovery or registration (none until then).
    private let identity = ChainedReference<FeatureIdentity>()

    /// Creates a flag. Subclasses call this.
    /// - Parameters:
    ///   - key: an explicit store key (no group prefix), or `nil` to derive it from the property name.
    ///   - label: a display label, or `nil` to humanise the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after a restart.
    public init(key: String?, label: String?, description: String?, requiresRestart: Bool) {
        self.explicitKey = key
        self.explicitLabel = label
        self.description = description
        self.requiresRestart = requiresRestart
    }

    // MARK: Identity

    /// Calls `body` with the published identity (`nil` before discovery or registration), lock-free.
    private func withIdentity<R>(_ body: (FeatureIdentity?) -> R) -> R {
        identity.withCurrent(body)
    }

    /// The store key: the group path and the property name joined by `.`, or the explicit key.
    public var key: String { withIdentity { $0?.key } ?? explicitKey ?? "" }
    /// The display label: the explicit label, or the property name humanised (`newURLFormat` → "New URL Format").
    public var label: String {
        withIdentity { identity in
            guard let identity else { return explicitLabel ?? LabelFormatter.humanize(explicitKey ?? "") }
            return identity.label
        }
    }
    /// The labels of the enclosing groups, outermost first (empty for a flag at the registry's top level).
    public var groupPath: [String] { enclosingGroup?.labelPath ?? [] }
    /// The group the flag is declared or registered in, if any.
    final var enclosingGroup: FeatureGroup? { withIdentity { $0?.group } }
    /// The keys of the enclosing groups, outermost first.
    public var groupKeyPath: [String] { enclosingGroup?.keyPath ?? [] }
    /// Where the flag was declared, e.g. `AppFeatures.list.infiniteScroll` (used in problem reports).
    public var declarationPath: String {
        let (declared, key, group) = withIdentity { ($0?.declarationPath, $0?.key ?? explicitKey ?? "", $0?.group) }
        if let declared { return declared }
        return "registered:" + ((group?.keyPath ?? []) + [key]).joined(separator: ".")
    }
    /// The registry this flag belongs to, once it has been discovered or registered.
    public var registry: FeatureRegistry? { withIdentity { $0?.registry } }

    /// Where the default value comes from. Subclasses override.
    open var kind: FeatureKind { .static }

    /// Publishes the identity given by discovery or registration.
    /// - Parameter declarationPath: where it was declared, or `nil` for a runtime registration (then derived).
    func assignIdentity(
        propertyName: String?, group: [FeatureGroup], registry: FeatureRegistry, declarationPath: String?
    ) {
        let key = explicitKey == nil ? propertyName.map { (group.map(\.key) + [$0]).joined(separator: ".") } : nil
        // A property name says more than the key; without one the label is humanised from the key when read.
        let label = explicitLabel ?? propertyName.map(LabelFormatter.humanize)
        identity.replace { previous in
            FeatureIdentity(
                key: key ?? previous?.key ?? explicitKey ?? "", label: label, group: group.last,
                declarationPath: declarationPath, registry: registry, previous: previous
            )
        }
    }

    // MARK: Value

    /// The effective value: a test override, else the local override, else the default
    /// (remote, dynamic, build target or static).
    ///
    /// This is the hot path: no I/O, no allocation, no lock (for `DynamicFeature` add the closure's cost).
    public final var enabled: Bool {
        if TaskLocalOverrides.isActive, let forced = TaskLocalOverrides.value(for: self) {
            return forced
        }
        switch overrideCell.load(ordering: .relaxed) {
        case 1: return true
        case 2: return false
        default: return computedDefault
        }
    }

    /// The value without any override. Subclasses override this with a fast computation.
    open var computedDefault: Bool { resolveDefault().value }

    /// The value without any override, with its source and the chain of sources considered.
    /// Subclasses override this.
    open func resolveDefault() -> Resolution {
        .single(false, from: .static)
    }

    /// The effective value and why, including the override and any test override.
    public final var resolution: Resolution {
        let base = resolveDefault()
        var chain: [ResolutionStep] = []
        var value = base.value
        var source = base.source
        let forced = TaskLocalOverrides.isActive ? TaskLocalOverrides.value(for: self) : nil
        if let forced {
            chain.append(ResolutionStep(source: .testOverride, value: forced, detail: "forced in this task"))
        }
        let state = override
        chain.append(
            ResolutionStep(
                source: .override, value: state.forcedValue, detail: state == .featureDefault ? "not overridden" : nil))
        chain.append(contentsOf: base.chain)
        if let forced {
            value = forced
            source = .testOverride
        } else if let overrideValue = state.forcedValue {
            value = overrideValue
            source = .override
        }
        return Resolution(value: value, source: source, chain: chain)
    }

    // MARK: Override

    /// The local override. Setting it persists through the registry's override store and notifies
    /// change subscribers.
    ///
    /// Setting it never throws: if the store cannot be written (corrupt or unwritable file) the override is
    /// not applied and the error is kept in the registry's `storeError`. Use
    /// `FeatureRegistry.setOverride(_:for:)` to get the error. A flag not yet in a registry keeps the
    /// override in memory only.
    public final var override: OverrideState {
        get { OverrideState(cellValue: overrideCell.load(ordering: .relaxed)) }
        set {
            if let registry {
                do {
                    try registry.setOverride(newValue, for: self)
                } catch {
                    registry.recordStoreError(error)
                }
            } else {
                overrideCell.store(newValue.cellValue, ordering: .relaxed)
            }
        }
    }

    /// Whether the flag has an override (`override != .featureDefault`).
    public var isOverridden: Bool { overrideCell.load(ordering: .relaxed) != 0 }

    // MARK: Restart tracking

    /// The effective value when the registry was created (or when this flag was registered).
    public var launchValue: Bool {
        switch launchCell.load(ordering: .relaxed) {
        case 1: return true
        case 2: return false
        default: return enabled
        }
    }

    /// `true` when the flag requires a restart and its effective value differs from ``launchValue``.
    public var isPendingRestart: Bool {
        requiresRestart && launchCell.load(ordering: .relaxed) != 0 && enabled != launchValue
    }

    func recordLaunchValue() {
        launchCell.store(enabled ? 1 : 2, ordering: .relaxed)
    }
}

/// A flag's identity once discovered or registered. Immutable, so readers need no lock.
final class FeatureIdentity: Sendable {
    let key: String
    let declarationPath: String?
    private let explicitLabel: String?
    /// Weak: groups hold their flags, and the registry holds both.
    private let weakGroup: WeakReference<FeatureGroup>
    private let weakRegistry: WeakReference<FeatureRegistry>
    /// The identity this one replaced, kept alive for readers that loaded its pointer before the swap.
    private let previous: FeatureIdentity?

    init(
        key: String, label: String?, group: FeatureGroup?, declarationPath: String?, registry: FeatureRegistry,
        previous: FeatureIdentity?
    ) {
        self.key = key
        self.explicitLabel = label
        self.weakGroup = WeakReference(group)
        self.declarationPath = declarationPath
        self.weakRegistry = WeakReference(registry)
        self.previous = previous
    }

    var group: FeatureGroup? { weakGroup.value }
    var registry: FeatureRegistry? { weakRegistry.value }

    /// The label given at declaration or from the property name, else the key humanised on each read (not
    /// stored: a manifest of 100,000 flags without labels would otherwise keep 100,000 more strings, while a
    /// read costs a fraction of a microsecond and only visible rows and the search index read labels).
    var label: String {
        explicitLabel ?? LabelFormatter.humanize(key)
    }
}

/// A weak reference that never changes after creation.
struct WeakReference<Object: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked: written once at creation; Swift's weak references are safe to read from any thread.
    private weak var object: Object?

    init(_ object: Object?) { self.object = object }

    var value: Object? { object }
}
