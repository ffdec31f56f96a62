import Flagstaff
import Foundation
import Synchronization

/// A flag whose default comes from a remote-config key, falling back to a static default.
///
/// Resolution, highest first: a test override, a local (QA) override — both handled by the core — then the
/// active remote value of ``remoteKey`` (source `.remote(provider:fetchedAt:)`, read with
/// ``RemoteConfigValue/boolValue``), then ``defaultState`` (source `.static`). Only the *active* config
/// counts: fetched but not activated values, and the config's in-app defaults, do not.
///
/// ```swift
/// let remoteConfig = RemoteConfig(provider: firebase, storageDirectory: cacheURL)
///
/// struct MomentsFeatures: FeatureGroup {
///     let isRoundedAvatar = RemoteFeature(remoteKey: "isRoundedAvatar", defaultState: false, config: remoteConfig)
/// }
/// // or at runtime, with an explicit key:
/// try registry.register(RemoteFeature(key: "moments.isRoundedAvatar", remoteKey: "isRoundedAvatar",
///                                     defaultState: false, config: remoteConfig))
/// remoteConfig.attach(to: registry)   // status in the console, Ctrl-R, change notifications
/// ```
///
/// A flag may be created unbound and bound once later with ``bind(to:)`` (for example when the config is
/// built after the registry). Until then it resolves to its static default.
///
/// `enabled` stays cheap: the remote value is cached in an atomic cell tagged with the config's
/// ``RemoteConfig/activeConfigGeneration`` and revalidated with two atomic loads; it is recomputed (one
/// dictionary lookup in the published snapshot, no lock) only after an activation. No I/O, no allocation, no lock.
public final class RemoteFeature: AnyFlag, RemoteKeyedFeature, @unchecked Sendable {
    // @unchecked: the only mutable state is `boundConfig`/`fastConfig`, written once under `bindLock` before
    // `isBound` is stored with release ordering, and read only after `isBound` is loaded with acquire
    // ordering (safe publication); plus the atomic `cache`.

    /// The remote-config key whose value drives this flag.
    public let remoteKey: String
    /// The value when the active config has no value for ``remoteKey`` (or no config is bound).
    public let defaultState: Bool

    private nonisolated(unsafe) var boundConfig: RemoteConfig?
    /// The same reference without reference counting, for the hot path: reading it neither retains nor releases
    /// the config, so readers on several threads do not contend on its reference count. Valid whenever `isBound`
    /// is true, because `boundConfig` (strong, never cleared) keeps the config alive as long as this flag.
    private nonisolated(unsafe) var fastConfig: Unmanaged<RemoteConfig>?
    private let isBound = Atomic<Bool>(false)
    private let bindLock = AnnotatedMutex(())
    /// `generation << 2 | state`: state 0 = no remote value, 1 = true, 2 = false; generation 0 = empty.
    private let cache = Atomic<UInt64>(0)

    /// Creates a flag backed by a remote-config key.
    ///
    /// - Parameters:
    ///   - key: An explicit store key (no group prefix); `nil` derives it from the property name. Flags
    ///     registered at runtime need one.
    ///   - remoteKey: The remote-config parameter key.
    ///   - defaultState: The value when there is no active remote value.
    ///   - label: A display label; `nil` humanises the property name.
    ///   - description: A human description.
    ///   - requiresRestart: Whether a change only takes effect after the app restarts.
    ///   - config: The config to read; `nil` to bind later with ``bind(to:)``.
    public init(
        key: String? = nil, remoteKey: String, defaultState: Bool = false, label: String? = nil,
        description: String? = nil, requiresRestart: Bool = false, config: RemoteConfig? = nil
    ) {
        self.remoteKey = remoteKey
        self.defaultState = defaultState
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
        if let config {
            boundConfig = config
            fastConfig = Unmanaged.passUnretained(config)
            isBound.store(true, ordering: .releasing)
        }
    }

    /// The bound config, or `nil` if not bound yet.
    public var config: RemoteConfig? {
        isBound.load(ordering: .acquiring) ? boundConfig : nil
    }

    /// Binds the flag to a config. A flag can be bound once; binding the same config again does nothing.
    ///
    /// If the flag already belongs to a registry, the config is also attached to it
    /// (``RemoteConfig/attach(to:)``).
    ///
    /// - Parameter config: The config to read.
    /// - Throws: ``RemoteFeatureError/alreadyBound(key:provider:)`` if bound to a different config.
    public func bind(to config: RemoteConfig) throws(RemoteFeatureError) {
        try bindLock.withLock { _ throws(RemoteFeatureError) in
            if isBound.load(ordering: .acquiring) {
                guard let current = boundConfig, current === config else {
                    throw .alreadyBound(key: key, provider: boundConfig?.name ?? "unknown")
                }
                return
            }
            boundConfig = config
            fastConfig = Unmanaged.passUnretained(config)
            isBound.store(true, ordering: .releasing)
        }
        if let registry { config.attach(to: registry) }
    }

    /// Remote flags take their default from a remote-config provider.
    public override var kind: FeatureKind { .remote }

    /// The active remote value as a Boolean, else ``defaultState``. Cached; see the type's discussion.
    public override var computedDefault: Bool {
        guard isBound.load(ordering: .acquiring), let config = fastConfig else { return defaultState }
        let state = config._withUnsafeGuaranteedRef { config -> UInt64 in
            let generation = config.activeConfigGeneration
            let cached = cache.load(ordering: .acquiring)
            if cached >> 2 == generation { return cached & 0b11 }
            let state: UInt64 =
                switch config.activeValue(forKey: remoteKey)?.boolValue {
                case .some(true): 1
                case .some(false): 2
                case .none: 0
                }
            cache.store(generation << 2 | state, ordering: .releasing)
            return state
        }
        switch state {
        case 1: return true
        case 2: return false
        default: return defaultState
        }
    }

    /// The default with its source: `.remote(provider:fetchedAt:)` when the active config has the key, else
    /// `.static`; the chain lists both.
    public override func resolveDefault() -> Resolution {
        let staticStep = ResolutionStep(source: .static, value: defaultState, detail: "static default")
        guard let config else {
            let remoteStep = ResolutionStep(
                source: .remote(provider: "none", fetchedAt: nil), value: nil,
                detail: "not bound to a remote config")
            return Resolution(value: defaultState, source: .static, chain: [remoteStep, staticStep])
        }
        let source = ResolutionSource.remote(provider: config.name, fetchedAt: config.lastFetchTime)
        guard let value = config.activeValue(forKey: remoteKey) else {
            let remoteStep = ResolutionStep(
                source: source, value: nil,
                detail: "no active value for \"\(remoteKey)\" (\(config.statusSummary))")
            return Resolution(value: defaultState, source: .static, chain: [remoteStep, staticStep])
        }
        let remoteStep = ResolutionStep(
            source: source, value: value.boolValue,
            detail: "\"\(remoteKey)\" = \"\(value.stringValue)\" (\(config.statusSummary))")
        return Resolution(value: value.boolValue, source: source, chain: [remoteStep, staticStep])
    }

    /// The active remote value of ``remoteKey`` (for display: the console shows it next to the source),
    /// or `nil` if there is none or no config is bound.
    public var remoteValue: RemoteConfigValue? {
        config?.activeValue(forKey: remoteKey)
    }
}

/// Errors from binding a ``RemoteFeature``.
///
/// A struct rather than an enum, so that a new kind of failure can be added without breaking code that handles
/// these errors: ask its properties (``key``, ``isAlreadyBound``) instead of matching cases.
public struct RemoteFeatureError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Equatable, Sendable {
        case alreadyBound(provider: String)
    }

    private let code: Code
    /// The flag's key.
    public let key: String

    private init(_ code: Code, key: String) {
        self.code = code
        self.key = key
    }

    /// The flag is already bound to another config.
    public static func alreadyBound(key: String, provider: String) -> RemoteFeatureError {
        RemoteFeatureError(.alreadyBound(provider: provider), key: key)
    }

    /// Whether the flag is already bound to another config.
    public var isAlreadyBound: Bool { provider != nil }

    /// The provider of the config the flag is already bound to, if that is the error.
    public var provider: String? {
        if case .alreadyBound(let provider) = code { return provider }
        return nil
    }

    /// A message naming the flag.
    public var description: String {
        switch code {
        case .alreadyBound(let provider):
            return "remote flag \"\(key)\" is already bound to a \(provider) remote config; a flag can be bound once"
        }
    }
}
