/// A setting's published state: the override (decoded and as stored), the launch override, and the remote value
/// decoded for one generation of its source. Immutable; replaced as a whole.
@usableFromInline
final class SettingState<Value: SettingValue>: @unchecked Sendable {
    // @unchecked: immutable; Value and the binding are Sendable.
    /// The stored (QA) override.
    @usableFromInline let override: Value?
    let stored: OverrideValue?
    /// The launch override, which wins over `override`.
    @usableFromInline let pinned: Value?
    let pinnedStored: OverrideValue?
    let pinnedOrigin: String?
    /// The linked value (``ResolutionSource/link(server:)``), between the launch override and `override`.
    @usableFromInline let linked: Value?
    let linkedStored: OverrideValue?
    let linkServer: String?
    @usableFromInline let binding: SettingRemoteBinding?
    /// The binding's ``SettingRemoteSource/settingValueGeneration``, asked once when bound: a read compares it
    /// with `remoteGeneration` without calling the source.
    @usableFromInline let sourceGeneration: SettingSourceGeneration?
    /// The source generation `remote` was decoded for (0: never; generations start at 1).
    @usableFromInline let remoteGeneration: UInt64
    @usableFromInline let remote: Value?
    let remoteRaw: RemoteSettingValue?
    let remoteProblem: String?
    /// The override that decides the value: the launch override, else the linked value, else the stored one. Stored,
    /// so a read loads it instead of calling a generic getter (docs/performance.md, "Reading a setting").
    @usableFromInline let forced: Value?

    init(
        override: Value? = nil, stored: OverrideValue? = nil, pinned: Value? = nil, pinnedStored: OverrideValue? = nil,
        pinnedOrigin: String? = nil, linked: Value? = nil, linkedStored: OverrideValue? = nil,
        linkServer: String? = nil, binding: SettingRemoteBinding?, sourceGeneration: SettingSourceGeneration?,
        remoteGeneration: UInt64 = 0, remote: Value? = nil, remoteRaw: RemoteSettingValue? = nil,
        remoteProblem: String? = nil
    ) {
        self.override = override
        self.stored = stored
        self.pinned = pinned
        self.pinnedStored = pinnedStored
        self.pinnedOrigin = pinnedOrigin
        self.linked = linked
        self.linkedStored = linkedStored
        self.linkServer = linkServer
        self.binding = binding
        self.sourceGeneration = sourceGeneration
        self.remoteGeneration = remoteGeneration
        self.remote = remote
        self.remoteRaw = remoteRaw
        self.remoteProblem = remoteProblem
        forced = pinned ?? linked ?? override
    }

    func with(override: Value?, stored: OverrideValue?) -> SettingState {
        SettingState(
            override: override, stored: stored, pinned: pinned, pinnedStored: pinnedStored, pinnedOrigin: pinnedOrigin,
            linked: linked, linkedStored: linkedStored, linkServer: linkServer, binding: binding,
            sourceGeneration: sourceGeneration, remoteGeneration: remoteGeneration, remote: remote,
            remoteRaw: remoteRaw, remoteProblem: remoteProblem)
    }

    func with(pinned: Value?, stored pinnedStored: OverrideValue?, origin: String?) -> SettingState {
        SettingState(
            override: override, stored: stored, pinned: pinned, pinnedStored: pinnedStored, pinnedOrigin: origin,
            linked: linked, linkedStored: linkedStored, linkServer: linkServer, binding: binding,
            sourceGeneration: sourceGeneration, remoteGeneration: remoteGeneration, remote: remote,
            remoteRaw: remoteRaw, remoteProblem: remoteProblem)
    }

    func with(linked: Value?, stored linkedStored: OverrideValue?, server: String?) -> SettingState {
        SettingState(
            override: override, stored: stored, pinned: pinned, pinnedStored: pinnedStored, pinnedOrigin: pinnedOrigin,
            linked: linked, linkedStored: linkedStored, linkServer: server, binding: binding,
            sourceGeneration: sourceGeneration, remoteGeneration: remoteGeneration, remote: remote,
            remoteRaw: remoteRaw, remoteProblem: remoteProblem)
    }

    func with(binding: SettingRemoteBinding) -> SettingState {
        SettingState(
            override: override, stored: stored, pinned: pinned, pinnedStored: pinnedStored, pinnedOrigin: pinnedOrigin,
            linked: linked, linkedStored: linkedStored, linkServer: linkServer, binding: binding,
            sourceGeneration: binding.source.settingValueGeneration)
    }

    func with(remote: Value?, raw: RemoteSettingValue?, problem: String?, generation: UInt64) -> SettingState {
        SettingState(
            override: override, stored: stored, pinned: pinned, pinnedStored: pinnedStored, pinnedOrigin: pinnedOrigin,
            linked: linked, linkedStored: linkedStored, linkServer: linkServer, binding: binding,
            sourceGeneration: sourceGeneration, remoteGeneration: generation, remote: remote, remoteRaw: raw,
            remoteProblem: problem)
    }
}
