import ArgumentParser
import Foundation

/// `--manifest` and `--store`, taken by every subcommand, with their environment fallbacks.
struct RegistrySourceOptions: ParsableArguments {
    /// The environment variable read when `--manifest` is not given.
    static let manifestVariable = "FLAGSTAFF_MANIFEST"
    /// The environment variable read when `--store` is not given.
    static let storeVariable = "FLAGSTAFF_STORE"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A registry manifest (JSON) to open instead of the built-in demo registry. Default: $FLAGSTAFF_MANIFEST.",
            valueName: "file"),
        completion: .file(extensions: ["json"]))
    var manifest: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The override store file. Default: $FLAGSTAFF_STORE, else ~/.config/flagstaff/<registry name>.json.",
            valueName: "file"),
        completion: .file(extensions: ["json"]))
    var store: String?

    // `.unconditional`: `--lock-timeout -1` is a value, refused by `validate()`, not a missing one.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds to wait for the store's lock while another process holds it before giving up (0: do not wait).",
            valueName: "seconds"))
    var lockTimeout: Double = 10

    /// The manifest path from the option or the environment (an empty variable counts as unset), with `~`
    /// expanded.
    /// - Parameter environment: the process environment.
    func manifestPath(environment: [String: String]) -> String? {
        (manifest ?? environment[Self.manifestVariable].flatMap { $0.isEmpty ? nil : $0 })
            .map { Self.expandingTilde($0, environment: environment) }
    }

    /// The store path from the option or the environment (an empty variable counts as unset), with `~`
    /// expanded.
    /// - Parameter environment: the process environment.
    func storePath(environment: [String: String]) -> String? {
        (store ?? environment[Self.storeVariable].flatMap { $0.isEmpty ? nil : $0 })
            .map { Self.expandingTilde($0, environment: environment) }
    }

    /// `~` and `~/…` with `$HOME` from `environment` (as a shell would for an unquoted word); other paths,
    /// `~user` forms included, unchanged. Without a usable `$HOME` the path stays as given.
    static func expandingTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
        if path == "~" { return home }
        let rest = path.dropFirst(2)
        return home.hasSuffix("/") ? home + rest : home + "/" + rest
    }

    func validate() throws {
        if manifest?.isEmpty == true { throw ValidationError("--manifest needs a file path") }
        if store?.isEmpty == true { throw ValidationError("--store needs a file path") }
        if !(lockTimeout.isFinite && lockTimeout >= 0) {
            throw ValidationError("--lock-timeout needs a number of seconds, 0 or more")
        }
    }
}
