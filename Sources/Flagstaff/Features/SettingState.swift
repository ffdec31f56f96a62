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
    @usableFromInline let binding: SettingRemoteBinding?
    /// The source generation `remote` was decoded for (`UInt64.max`: never).
    @usableFromInline let remoteGeneration: UInt64
    @usableFromInline let remote: Value?
    let remoteRaw: RemoteSettingValue?
    let remoteProblem: String?

    init(
        override: Value? = nil, stored: OverrideValue? = nil, pinned: Value? = nil, pinnedStored: OverrideValue? = nil,
        pinnedOrigin: String? = nil, binding: SettingRemoteBinding?, remoteGeneration: UInt64 = .max,
        remote: Value? = nil, remoteRaw: RemoteSettingValue? = nil, remoteProblem: String? = nil
    ) {
        self.override = override
        self.stored = stored
        self.pinned = pinned
        self.pinnedStored = pinnedStored
        self.pinnedOrigin = pinnedOrigin
        self.binding = binding
        self.remoteGeneration = remoteGeneration
        self.remote = remote
        self.remoteRaw = remoteRaw
        self.remoteProblem = remoteProblem
    }

    /// The override that decides the value: the launch override, else the stored one.
    @usableFromInline var forced: Value? { pinned ?? override }

    func with(override: Value?, stored: OverrideValue?) -> SettingState {
        SettingState(
            override: override, stored: stored, pinned: pinned, pinnedStored: pinnedStored, pinnedOrigin: pinnedOrigin,
            binding: binding, remoteGeneration: remoteGeneration, remote: remote, remoteRaw: remoteRaw,
            remoteProblem: remoteProblem)
    }

    func with(pinned: Value?, stored pinnedStored: OverrideValue?, origin: String?) -> SettingState {
        SettingState(
            override: override, stored: stored, pinned: pinned, pinnedStored: pinnedStored, pinnedOrigin: origin,
            binding: binding, remoteGeneration: remoteGeneration, remote: remote, remoteRaw: remoteRaw,
            remoteProblem: remoteProblem)
    }

    func with(binding: SettingRemoteBinding) -> SettingState {
        SettingState(
            override: override, stored: stored, pinned: pinned, pinnedStored: pinnedStored, pinnedOrigin: pinnedOrigin,
            binding: binding)
    }

    func with(remote: Value?, raw: RemoteSettingValue?, problem: String?, generation: UInt64) -> SettingState {
        SettingState(
            override: override, stored: stored, pinned: pinned, pinnedStored: pinnedStored, pinnedOrigin: pinnedOrigin,
            binding: binding, remoteGeneration: generation, remote: remote, remoteRaw: raw, remoteProblem: problem)
    }
}
