import Foundation

/// Where a flag's effective value came from.
public enum ResolutionSource: Sendable, Hashable {
    /// Forced inside a test scope (`FlagstaffTesting`'s `withFeature`), visible only to that task.
    case testOverride
    /// A launch override (`FLAGSTAFF_OVERRIDES`, `-flagstaff KEY=VALUE`): fixed for the life of the process.
    case launch
    /// A value linked from a flag server (`OFREPLink` in `FlagstaffRemote`, following `flagstaff serve` for QA):
    /// it wins over the app's own override, remote value and default while the link lasts, and unlinking
    /// restores them. `server` names the server (scheme, host and port, no path or query).
    case link(server: String)
    /// A local override (QA, the console, the CLI), persisted in the override store.
    case override
    /// A value from a remote-config provider's active config.
    case remote(provider: String, fetchedAt: Date?)
    /// A `DynamicFeature`'s closure.
    case dynamic
    /// A build-target rule (`Feature(enabledIn:)`) for the given target.
    case buildTarget(BuildTarget)
    /// The static default given at declaration.
    case `static`

    /// A short lowercase name for display: `test`, `launch`, `link`, `override`, `remote`, `dynamic`,
    /// `build target`, `default`.
    public var displayName: String {
        switch self {
        case .testOverride: return "test"
        case .launch: return "launch"
        case .link: return "link"
        case .override: return "override"
        case .remote: return "remote"
        case .dynamic: return "dynamic"
        case .buildTarget: return "build target"
        case .static: return "default"
        }
    }
}

/// One source considered while resolving a flag, with the value it offered (`nil` when it offered none).
public struct ResolutionStep: Sendable, Hashable {
    /// The source.
    public var source: ResolutionSource
    /// The value this source offered, or `nil` if it had none (no override, no remote value yet).
    public var value: Bool?
    /// A human note, e.g. `"remote value \"1\""` or `"enabled in debug, internal"`.
    public var detail: String?

    /// Creates a step.
    public init(source: ResolutionSource, value: Bool?, detail: String? = nil) {
        self.source = source
        self.value = value
        self.detail = detail
    }
}

/// A flag's effective value and why: the winning source and every source considered, in precedence order
/// (test override, launch override, link, override, remote, dynamic, build target, static).
public struct Resolution: Sendable, Hashable {
    /// The effective value.
    public var value: Bool
    /// The source that decided it.
    public var source: ResolutionSource
    /// Every source considered, highest precedence first.
    public var chain: [ResolutionStep]

    /// Creates a resolution.
    public init(value: Bool, source: ResolutionSource, chain: [ResolutionStep]) {
        self.value = value
        self.source = source
        self.chain = chain
    }

    /// A resolution with a single step.
    public static func single(_ value: Bool, from source: ResolutionSource, detail: String? = nil) -> Resolution {
        Resolution(value: value, source: source, chain: [ResolutionStep(source: source, value: value, detail: detail)])
    }
}
