import Foundation
import Synchronization

/// What every member of a registry has in common, boolean flags and typed settings alike: identity (key,
/// label, group), description, restart tracking, and a type-erased view of the value (JSON, see
/// ``OverrideValue``) for tools that show and edit any member (the console, the CLI, manifests).
///
/// The two families are ``AnyFlag`` (on/off: `Feature`, `DynamicFeature`, `RemoteFeature`, `UnleashFeature`,
/// with `enabled` and a three-state `override`) and ``Setting`` (a typed value with `value` and
/// `overriddenValue`). New kinds of flags subclass ``AnyFlag``.
///
/// Observation: members are `Observable`. Code that reads a flag's `enabled` or `override`, or a setting's `value`
/// or `overriddenValue`, inside `withObservationTracking` (or a SwiftUI view's body) is told when what it read
/// changes: an override set here or by another process (once the registry reloads the store), a remote activation,
/// an expiry, an undo. The type-erased views (`currentValue`, `overrideValue`, …) are not tracked.
///
/// Thread-safety: every member may be used from any thread; reading the identity (key, label, group, registry)
/// takes no lock.
open class AnyFeature: @unchecked Sendable {
    // @unchecked: the mutable state is in published references and atomics (and the subclasses' cells).
    // Everything else is immutable.

    /// The key given at declaration, if any; it wins over the property-derived key and gets no group prefix.
    package let explicitKey: String?
    /// A human description shown in the console and the CLI.
    public let description: String?
    /// Whether a change of this flag only takes effect after the app restarts.
    public let requiresRestart: Bool
    /// The position in the registry's ``AnyFeatureRegistry/allFeatures`` (-1 until registered). 32 bits, beside the
    /// Boolean: it takes the padding after it, so a member is no larger for it.
    private let ordinal = Atomic<Int32>(-1)

    private let explicitLabel: String?
    /// The identity given by discovery or registration (none until then).
    private let identity = PublishedReference<FeatureIdentity>()
    /// The Observation framework's state for this member, made at its first read by an app.
    @usableFromInline let observation = PublishedReference<MemberObservation>()
    /// How many test scopes (`withFeature`, `withSetting`) that force this member are open, in any task: a read
    /// looks for a task-local value only while this is not 0 (one load from the member, no global).
    @usableFromInline let openTestScopes = Atomic<Int32>(0)

    /// Whether a test scope forcing this member is open in some task: only then can the current task have a value
    /// for it in ``TaskLocalOverrides``.
    @inlinable @inline(__always)
    final var hasOpenTestScope: Bool { openTestScopes.load(ordering: .relaxed) != 0 }

    /// Creates a member. Only ``AnyFlag`` and ``Setting`` subclass this class directly.
    /// - Parameters:
    ///   - key: an explicit store key (no group prefix), or `nil` to derive it from the property name.
    ///   - label: a display label, or `nil` to humanise the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after a restart.
    package init(key: String?, label: String?, description: String?, requiresRestart: Bool) {
        self.explicitKey = key
        self.explicitLabel = label
        self.description = description
        self.requiresRestart = requiresRestart
    }

    // MARK: Identity

    /// Calls `body` with the published identity (`nil` before discovery or registration), lock-free.
    private func withIdentity<R>(_ body: (FeatureIdentity?) -> R) -> R {
        identity.readIfPublished { body($0) } ?? body(nil)
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
    final var enclosingGroup: RegistryGroup? { withIdentity { $0?.group } }
    /// The keys of the enclosing groups, outermost first.
    package var groupKeyPath: [String] { enclosingGroup?.keyPath ?? [] }
    /// Where the flag was declared, e.g. `AppFeatures.list.infiniteScroll` (used in problem reports).
    package var declarationPath: String {
        let (declared, key, group) = withIdentity { ($0?.declarationPath, $0?.key ?? explicitKey ?? "", $0?.group) }
        if let declared { return declared }
        return "registered:" + ((group?.keyPath ?? []) + [key]).joined(separator: ".")
    }
    /// The registry this flag belongs to, once it has been discovered or registered.
    public var registry: AnyFeatureRegistry? { withIdentity { $0?.registry } }
    /// The member's position in its registry's ``AnyFeatureRegistry/allFeatures`` (members are only ever added, so it
    /// never changes), or `nil` before registration: a small number for sets of members (``MemberSet``).
    package final var registryOrdinal: Int? {
        let value = ordinal.load(ordering: .relaxed)
        return value < 0 ? nil : Int(value)
    }

    /// Records the member's position in its registry's member list (under the registry's lock, as it is appended).
    final func assignOrdinal(_ position: Int) {
        ordinal.store(Int32(clamping: position), ordering: .relaxed)
    }

    /// Where the default value comes from. Subclasses override.
    open var kind: FeatureKind { .static }

    /// Publishes the identity given by discovery or registration.
    /// - Parameter declarationPath: where it was declared, or `nil` for a runtime registration (then derived).
    func assignIdentity(
        propertyName: String?, group: [RegistryGroup], registry: AnyFeatureRegistry, declarationPath: String?
    ) {
        let key = explicitKey == nil ? propertyName.map { (group.map(\.key) + [$0]).joined(separator: ".") } : nil
        // A property name says more than the key; without one the label is humanised from the key when read.
        let label = explicitLabel ?? propertyName.map(LabelFormatter.humanize)
        identity.replace { previous in
            FeatureIdentity(
                key: key ?? previous?.key ?? explicitKey ?? "", label: label, group: group.last,
                declarationPath: declarationPath, registry: registry)
        }
    }

    // MARK: Value, type-erased

    /// What kind of value this member holds (`.boolean` for flags).
    public var settingType: SettingType { .boolean }

    /// The inclusive bounds of a number setting declared with a range, else `nil`.
    package var valueRange: ValueRange? { nil }

    /// The effective value as JSON (`"on"`/`"off"` for flags), test overrides included.
    public var currentValue: OverrideValue { abstract() }

    /// The value this member would have without a local override (remote, dynamic, build target or default).
    public var valueWithoutOverride: OverrideValue { abstract() }

    /// The declared default (for flags with a build-target or dynamic default: the value without override).
    package var declaredDefault: OverrideValue { valueWithoutOverride }

    /// The local override in force, or `nil` when there is none.
    public var overrideValue: OverrideValue? { abstract() }

    /// The effective value without test overrides, and the local override: what observers are told about.
    var observedState: ObservedState { abstract() }

    /// The launch override (``LaunchOverrides``) in force, or `nil`. It wins over the local override, which stays
    /// stored beneath it, and cannot change while the process runs.
    package var launchOverrideValue: OverrideValue? { abstract() }

    /// The value a link to a flag server puts in force (``ResolutionSource/link(server:)``), or `nil`. It wins over
    /// the local override, the remote value and the default, and loses to launch and test overrides; removing it
    /// (unlinking) restores them.
    package var linkedValue: OverrideValue? { abstract() }

    /// Whether the member has a local override.
    public var isOverridden: Bool { overrideValue != nil }

    /// The effective value and why: the winning source and every source considered, highest first. The
    /// override step carries the override's expiry, if it has one.
    public var explanation: ValueResolution {
        var resolution = resolvedExplanation
        if let expiry = overrideExpiry, let index = resolution.chain.firstIndex(where: { $0.source == .override }) {
            resolution.chain[index].expiresAt = expiry.expiresAt
        }
        return resolution
    }

    /// The resolution without the override's expiry (subclasses).
    var resolvedExplanation: ValueResolution { abstract() }

    /// When the local override stops applying, or `nil` when it is permanent, there is none, or the member is
    /// not in a registry.
    public var overrideExpiry: OverrideExpiry? {
        guard let registry, registry.contains(self) else { return nil }
        return registry.overrideExpiry(forKey: key)
    }

    /// The effective value when the registry was created (or this member registered, or launch values were last
    /// recorded).
    package var launchStoredValue: OverrideValue { abstract() }

    /// `true` when the member requires a restart and its effective value differs from the one at launch.
    public var isPendingRestart: Bool { abstract() }

    /// Checks that `value` is a valid value for this member (type, range, choices, JSON shape).
    /// - Throws: ``SettingValueError`` saying what was expected.
    package func validate(_ value: OverrideValue) throws(SettingValueError) { abstract() }

    /// Parses a value typed by a person (`on`/`off` for flags; text; numbers; case names; JSON text) and
    /// validates it.
    /// - Returns: the value to store.
    /// - Throws: ``SettingValueError`` saying what was expected (`must be 1…100`).
    package func parse(_ text: String) throws(SettingValueError) -> OverrideValue { abstract() }

    /// A value as shown to a person: `on`/`off`, the string itself, a number, a case name, compact JSON.
    package func displayText(_ value: OverrideValue) -> String { abstract() }

    /// Sets or removes (`nil`) the local override, validated and persisted through the registry.
    /// - Throws: ``SettingValueError`` for an invalid value (nothing changes), `RegistryError.notInRegistry`, or
    ///   the store's error.
    public func setOverrideValue(_ value: OverrideValue?) throws {
        if let value { try validate(value) }
        try writeOverride(value)
    }

    /// Sets the local override until `expiresAt` (permanent for `nil`), validated and persisted through the
    /// registry (``AnyFeatureRegistry/setOverrideValues(_:expiresAt:)``).
    /// - Throws: ``SettingValueError`` for an invalid value, `RegistryError.notInRegistry`,
    ///   ``InvalidOverrideValue`` for an expiry not in the future, or the store's error; nothing changes on error.
    public func setOverrideValue(_ value: OverrideValue, expiresAt: Date?) throws {
        try validate(value)
        guard let registry, registry.contains(self) else { throw RegistryError.notInRegistry(key) }
        try registry.setOverrideValues([key: .set(value)], expiresAt: expiresAt)
    }

    /// Persists (or, outside a registry, puts in force) a value already known to be valid for this member.
    func writeOverride(_ value: OverrideValue?) throws {
        if let registry {
            guard registry.contains(self) else { throw RegistryError.notInRegistry(key) }
            try registry.write(OverrideChange([key: OverrideEdit(value)]), policy: .writeEveryValue)
        } else {
            _ = applyStored(value)
            announceObservedChange()
        }
    }

    /// Puts a value already known to be valid for this member in force at once and queues its write
    /// (``AnyFeatureRegistry/writeFromApp(_:for:)``), or, outside a registry, puts it in force.
    /// - Throws: `RegistryError.notInRegistry` when the registry has another member under this key.
    func writeOverrideFromApp(_ value: OverrideValue?) throws {
        if let registry {
            guard registry.contains(self) else { throw RegistryError.notInRegistry(key) }
            registry.writeFromApp(value, for: self)
        } else {
            _ = applyStored(value)
            announceObservedChange()
        }
    }

    /// Puts a stored value (or no override) in force. Called by the registry for store entries.
    /// - Returns: whether the effective override changed, and why the value was refused, if it was.
    func applyStored(_ value: OverrideValue?) -> StoredValueOutcome { abstract() }

    /// Puts a (validated) linked value in force, or removes it (`nil`).
    /// - Returns: whether the linked value changed.
    func applyLinkedValue(_ value: OverrideValue?, server: String) -> Bool { abstract() }

    /// Remembers the current value as the launch value.
    func recordLaunchValue() { abstract() }

    /// Remembers `value` as the launch value; a value that is not valid for this member changes nothing.
    func recordLaunchValue(_ value: OverrideValue) { abstract() }

    /// Puts a (validated) launch override in force, or removes it.
    func applyLaunchOverride(_ value: OverrideValue?, origin: String) { abstract() }

    private func abstract() -> Never {
        preconditionFailure("AnyFeature is subclassed only by AnyFlag and Setting")
    }
}

/// What applying a stored value did.
struct StoredValueOutcome {
    /// Whether the override in force changed.
    var changed: Bool
    /// Why the stored value was refused (it stays in the file), or `nil`.
    var problem: String?
}

/// A flag's identity once discovered or registered. Immutable, so readers need no lock.
final class FeatureIdentity: Sendable {
    let key: String
    /// Weak: groups hold their flags, and the registry holds both.
    private let weakGroup: WeakReference<RegistryGroup>
    private let weakRegistry: WeakReference<AnyFeatureRegistry>
    /// The declaration path and the explicit label, when there is either: most members registered from a
    /// manifest have neither, and then carry no object for them.
    private let details: Details?

    private final class Details: Sendable {
        let declarationPath: String?
        let explicitLabel: String?

        init(declarationPath: String?, explicitLabel: String?) {
            self.declarationPath = declarationPath
            self.explicitLabel = explicitLabel
        }
    }

    init(
        key: String, label: String?, group: RegistryGroup?, declarationPath: String?, registry: AnyFeatureRegistry
    ) {
        self.key = key
        self.weakGroup = WeakReference(group)
        self.weakRegistry = WeakReference(registry)
        self.details =
            label == nil && declarationPath == nil
            ? nil : Details(declarationPath: declarationPath, explicitLabel: label)
    }

    var group: RegistryGroup? { weakGroup.value }
    var registry: AnyFeatureRegistry? { weakRegistry.value }
    /// Where the member was declared (`nil` for a runtime registration).
    var declarationPath: String? { details?.declarationPath }

    /// The label given at declaration or from the property name, else the key humanised on each read (not stored:
    /// only visible rows and the search index read labels, and a large manifest would keep a string per member).
    var label: String {
        details?.explicitLabel ?? LabelFormatter.humanize(key)
    }
}

/// A weak reference that never changes after creation.
struct WeakReference<Object: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked: written once at creation; Swift's weak references are safe to read from any thread.
    private weak var object: Object?

    init(_ object: Object?) { self.object = object }

    var value: Object? { object }
}
