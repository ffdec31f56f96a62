import ArgumentParser
import Foundation

/// `--manifest` and `--store`, taken by every subcommand, with their environment fallbacks.
struct RegistrySourceOptions: ParsableArguments {
    /// The environment variable read when `--manifest` is not given.
    static let manifestVariable = "FLAGSTAFF_MANIFEST"
    /// The environment variable read when `--store` is not given.
    static let storeVariable = "FLAGSTAFF_STORE"
    /// The environment variable that stands for `--demo` (`1`), for scripts and harnesses that drive the demo.
    static let demoVariable = "FLAGSTAFF_DEMO"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A registry manifest (JSON) to open. Default: $FLAGSTAFF_MANIFEST, else the manifest the app announced beside --store (<store>.manifest.json).",
            valueName: "file"),
        completion: .file(extensions: ["json"]))
    var manifest: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The override store file. Default: $FLAGSTAFF_STORE, else the default store of the registry's name (~/.config/flagstaff/<name>.json on Linux, Application Support/flagstaff on Apple platforms).",
            valueName: "file"),
        completion: .file(extensions: ["json"]))
    var store: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Open the built-in demo registry (what flagstaff opens with no arguments), also on a --store. Default: $FLAGSTAFF_DEMO=1."
        ))
    var demo = false

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

    /// Whether the demo registry was asked for, by `--demo` or `FLAGSTAFF_DEMO=1`.
    /// - Parameter environment: the process environment.
    func wantsDemo(environment: [String: String]) -> Bool {
        demo || environment[Self.demoVariable] == "1"
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
        if demo && manifest != nil { throw ValidationError("give either --demo or --manifest, not both") }
        if !(lockTimeout.isFinite && lockTimeout >= 0) {
            throw ValidationError("--lock-timeout needs a number of seconds, 0 or more")
        }
    }
}
