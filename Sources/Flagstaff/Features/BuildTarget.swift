import Synchronization

/// The kind of build the app is: a developer's debug build, an internal (dogfood/QA) release build, or the
/// production release.
///
/// `BuildTarget.current` is `.debug` when the code was compiled with the `DEBUG` condition (SwiftPM's and
/// Xcode's debug configuration) and `.production` otherwise. An internal build is a release build that says
/// so: call ``declare(_:)`` once at start-up, before flags are read, e.g. from a launch argument or an
/// environment variable your internal builds set.
public enum BuildTarget: String, Sendable, Hashable, CaseIterable, Codable {
    /// A debug build.
    case debug
    /// An internal (QA, dogfood) release build.
    case `internal`
    /// The production (App Store, public) release.
    case production

    private static let declared = Atomic<UInt8>(0)

    /// The target this build was compiled as, ignoring any declaration.
    public static var compiled: BuildTarget {
        #if DEBUG
        return .debug
        #else
        return .production
        #endif
    }

    /// The current build target: the declared one if the app called ``declare(_:)``, else ``compiled``.
    ///
    /// Reading it is a single atomic load.
    public static var current: BuildTarget {
        switch declared.load(ordering: .relaxed) {
        case 1: return .debug
        case 2: return .internal
        case 3: return .production
        default: return compiled
        }
    }

    /// Declares the build target for the rest of the process (e.g. `.internal` in a QA build).
    ///
    /// Flags built with `Feature(enabledIn:)` follow the new target at their next read. Pass `nil` to go
    /// back to ``compiled``.
    /// - Parameter target: the target to declare, or `nil` to clear the declaration.
    public static func declare(_ target: BuildTarget?) {
        let code: UInt8
        switch target {
        case nil: code = 0
        case .debug: code = 1
        case .internal: code = 2
        case .production: code = 3
        }
        declared.store(code, ordering: .relaxed)
    }
}
