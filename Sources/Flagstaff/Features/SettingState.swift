/// A setting's published state: the override (decoded and as stored), the launch override, the linked value and the
/// remote value decoded for one generation of its source. Immutable; replaced as a whole (``with(_:)``).
@usableFromInline
final class SettingState<Value: SettingValue>: @unchecked Sendable {
    // @unchecked: immutable; Value and the binding are Sendable.

    /// What a state holds; a change copies it, edits the copy and makes a new state of it.
    @usableFromInline
    struct Parts: Sendable {
        /// The stored (QA) override.
        @usableFromInline var override: Value?
        var stored: OverrideValue?
        /// The launch override, which wins over `override`.
        var pinned: Value?
        var pinnedStored: OverrideValue?
        var pinnedOrigin: String?
        /// The linked value (``ResolutionSource/link(server:)``), between the launch override and `override`.
        var linked: Value?
        var linkedStored: OverrideValue?
        var linkServer: String?
        @usableFromInline var binding: SettingRemoteBinding?
        /// The binding's ``SettingRemoteSource/settingValueGeneration``, asked once when bound: a read compares it
        /// with `remoteGeneration` without calling the source.
        @usableFromInline var sourceGeneration: SettingSourceGeneration?
        /// The source generation `remote` was decoded for (0: never; generations start at 1).
        @usableFromInline var remoteGeneration: UInt64 = 0
        @usableFromInline var remote: Value?
        var remoteRaw: RemoteSettingValue?
        var remoteProblem: String?

        /// Bound to `binding` (or to nothing), with no override and no remote value yet.
        init(binding: SettingRemoteBinding?, sourceGeneration: SettingSourceGeneration?) {
            self.binding = binding
            self.sourceGeneration = sourceGeneration
        }
    }

    @usableFromInline let parts: Parts
    /// The override that decides the value: the launch override, else the linked value, else the stored one. Stored,
    /// so a read loads it instead of calling a generic getter (docs/performance.md, "Reading a setting").
    @usableFromInline let forced: Value?

    init(_ parts: Parts) {
        self.parts = parts
        forced = parts.pinned ?? parts.linked ?? parts.override
    }

    /// A copy with `change` made to its parts.
    func with(_ change: (inout Parts) -> Void) -> SettingState {
        var parts = self.parts
        change(&parts)
        return SettingState(parts)
    }

    /// A copy bound to `binding`, with no remote value yet (the overrides kept).
    func with(binding: SettingRemoteBinding) -> SettingState {
        with {
            $0.binding = binding
            $0.sourceGeneration = binding.source.settingValueGeneration
            $0.remoteGeneration = 0
            $0.remote = nil
            $0.remoteRaw = nil
            $0.remoteProblem = nil
        }
    }
}
