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
/// Reading `enabled` does no I/O, takes no lock and allocates nothing: the remote value is looked up again only
/// after an activation (``RemoteConfig/activeConfigGeneration``).
public final class RemoteFeature: AnyFlag, RemoteKeyedFeature, @unchecked Sendable {
    // @unchecked: the mutable state is the bound config (a published reference) and the cache (an atomic).

    /// The remote-config key whose value drives this flag.
    public let remoteKey: String
    /// The value when the active config has no value for ``remoteKey`` (or no config is bound).
    public let defaultState: Bool

    /// The config, published once by ``bind(to:)`` or `init` and never replaced (so read with one load, no retain).
    private let boundConfig = PublishedReference<RemoteConfig>()
    /// The remote value for one config generation, as `generation << 2 | value`, value 0 = none, 1 = on, 2 = off
    /// (generation 0: nothing cached). One word, so it is read and replaced whole.
    private let cachedRemoteValue = Atomic<UInt64>(0)

    /// Creates a flag backed by a remote-config key.
    ///
    /// - Parameters:
    ///   - key: An explicit store key (no group prefix); `nil` derives it from the property name. Flags
    ///     registered at runtime need one.
    ///   - remoteKey: The remote-config parameter key.
    ///   - default: The value when there is no active remote value.
    ///   - label: A display label; `nil` humanises the property name.
    ///   - description: A human description.
    ///   - requiresRestart: Whether a change only takes effect after the app restarts.
    ///   - config: The config to read; `nil` to bind later with ``bind(to:)``.
    public init(
        key: String? = nil, remoteKey: String, default defaultState: Bool = false, label: String? = nil,
        description: String? = nil, requiresRestart: Bool = false, config: RemoteConfig? = nil
    ) {
        self.remoteKey = remoteKey
        self.defaultState = defaultState
        super.init(key: key, label: label, description: description, requiresRestart: requiresRestart)
        if let config { boundConfig.publishIfEmpty(config) { _ in } }
    }

    /// Creates a flag backed by a remote-config key: the earlier spelling of
    /// ``init(key:remoteKey:default:label:description:requiresRestart:config:)``.
    @available(*, deprecated, renamed: "init(key:remoteKey:default:label:description:requiresRestart:config:)")
    public convenience init(
        key: String? = nil, remoteKey: String, defaultState: Bool, label: String? = nil, description: String? = nil,
        requiresRestart: Bool = false, config: RemoteConfig? = nil
    ) {
        self.init(
            key: key, remoteKey: remoteKey, default: defaultState, label: label, description: description,
            requiresRestart: requiresRestart, config: config)
    }

    /// The bound config, or `nil` if not bound yet.
    public var config: RemoteConfig? {
        boundConfig.readIfPublishedOnce { $0 }
    }

    /// Binds the flag to a config. A flag can be bound once; binding the same config again does nothing.
    ///
    /// If the flag already belongs to a registry, the config is also attached to it
    /// (``RemoteConfig/attach(to:)``).
    ///
    /// - Parameter config: The config to read.
    /// - Throws: ``RemoteFeatureError/alreadyBound(key:provider:)`` if bound to a different config.
    public func bind(to config: RemoteConfig) throws(RemoteFeatureError) {
        let bound = boundConfig.publishIfEmpty(config) { $0 }
        guard bound === config else { throw .alreadyBound(key: key, provider: bound.name) }
        if let registry { config.attach(to: registry) }
    }

    /// Remote flags take their default from a remote-config provider.
    public override var kind: FeatureKind { .remote }

    /// The active remote value as a Boolean, else ``defaultState``. Cached; see the type's discussion.
    public override var computedDefault: Bool {
        let state = boundConfig.readIfPublishedOnce { config -> UInt64 in
            let generation = config.activeConfigGeneration
            let cached = cachedRemoteValue.load(ordering: .acquiring)
            if cached >> 2 == generation { return cached & 0b11 }
            let state: UInt64 =
                switch config.activeValue(forKey: remoteKey)?.boolValue {
                case .some(true): 1
                case .some(false): 2
                case .none: 0
                }
            cachedRemoteValue.store(generation << 2 | state, ordering: .releasing)
            return state
        }
        switch state ?? 0 {
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
