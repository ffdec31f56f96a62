import Flagstaff
import FlagstaffFlagd
import FlagstaffRemote
import Foundation

/// A registry opened for a command, with where it came from.
struct LoadedRegistry {
    /// The registry.
    let registry: AnyFeatureRegistry
    /// The override store file.
    let storeURL: URL
    /// The manifest file, or `nil` for the built-in demo registry.
    let manifestPath: String?
    /// Whether the registry is the store's own: the manifest its app announced beside it, or the demo registry on
    /// the demo's default store. Removing keys the registry does not declare needs it (or `--yes`).
    let isStoresOwnRegistry: Bool
    /// The manifest, or `nil` for the built-in demo registry and a flagd definitions file.
    let manifest: RegistryManifest?
    /// The remote config of the manifest's `"remote"` section (or the demo's), if any.
    let remoteConfig: RemoteConfig?
}

/// Opens the registry a command works on: the manifest given by `--manifest`/`FLAGSTAFF_MANIFEST`, else the
/// built-in demo registry, with the store given by `--store`/`FLAGSTAFF_STORE`, else the default location for
/// the registry's name.
enum RegistryLoader {
    /// How strict to be about the store.
    enum StoreRequirement {
        /// The store must be readable and valid (every command that shows or changes values).
        case readable
        /// The store is not used (`manifest`).
        case ignored
        /// As ``readable``, but a corrupt store is not an error: the command can remove the entries that make it
        /// so (`reset`, `doctor --fix`, see `StoreRepair`); its write still fails when anything else is wrong.
        case repairable
    }

    /// The store name of the demo registry (`~/.config/flagstaff/demo.json`).
    static let demoStoreName = "demo"
    /// The registry `console --serve` opens when none is named: empty until linked apps announce theirs, on the
    /// store `~/.config/flagstaff/linked-apps.json`.
    static let linkedAppsStoreName = "linked-apps"

    /// What to open when neither `--manifest`, `--store` nor `--demo` names a registry.
    enum Unnamed {
        /// The built-in demo registry (`flagstaff` with no arguments).
        case demo
        /// An empty registry that linked apps fill with theirs (`console --serve`).
        case linkedApps
    }

    /// Opens the registry.
    /// - Parameters:
    ///   - options: `--manifest` and `--store`.
    ///   - environment: the environment (for the fallbacks); the command context's by default.
    ///   - watchStore: whether the registry polls the store for other processes' changes (the console).
    ///   - store: whether a corrupt or unreadable store is an error.
    ///   - notingStoredValueProblems: whether to say on standard error which store entries are ignored (`doctor`
    ///     lists them itself).
    /// - Returns: the registry and its sources.
    /// - Throws: `CLIFailure` naming the manifest or store file and what is wrong.
    static func load(
        _ options: RegistrySourceOptions, environment: [String: String] = CommandContext.current.environment,
        watchStore: Bool = false, store requirement: StoreRequirement = .readable,
        notingStoredValueProblems: Bool = true, unnamed: Unnamed = .demo
    ) throws -> LoadedRegistry {
        var manifestPath = options.manifestPath(environment: environment)
        let explicitStore = options.storePath(environment: environment)
        let demo = options.wantsDemo(environment: environment)
        let linkedApps = unnamed == .linkedApps && manifestPath == nil && explicitStore == nil && !demo
        var announced = false
        if manifestPath == nil, !demo, let explicitStore {
            let path = try announcedManifestPath(forStore: explicitStore)
            guard (try? Platform.status(atPath: path, followingLinks: false)) != nil else {
                throw CLIFailure.runtime(
                    "no app has announced its registry beside the store \(explicitStore) (\(path) does not exist): run the app once with this store (a registry with a FileOverrideStore announces itself there), or name the registry with --manifest FILE; --demo opens the built-in demo registry on this store"
                )
            }
            manifestPath = path
            announced = true
        }
        var manifest: RegistryManifest?
        var flagd: FlagdSource?
        if let manifestPath {
            if announced {
                manifest = try loadAnnouncedManifest(manifestPath)
            } else {
                switch try loadManifestOrDefinitions(manifestPath, environment: environment) {
                case .manifest(let loaded): manifest = loaded
                case .flagd(let source): flagd = source
                }
            }
        }
        let flagdName = flagd.flatMap { _ in manifestPath.map(flagdRegistryName) }
        if let explicitStore { try checkStoreDirectory(explicitStore) }
        let storeURL =
            explicitStore.map { URL(fileURLWithPath: $0) }
            ?? FileOverrideStore.defaultURL(
                name: manifest?.name ?? flagdName ?? (linkedApps ? linkedAppsStoreName : demoStoreName))
        let wallClock = try CommandClock.wallClock(environment: environment)
        let store: FileOverrideStore
        do {
            // An unused store is never written (and completion's options were never parsed: no lock timeout).
            let lockWait = requirement == .ignored ? FileOverrideStore.LockWait() : lockWait(options, quiet: watchStore)
            store = try FileOverrideStore(
                url: storeURL, lockWait: lockWait, journal: JournalOptions(origin: watchStore ? .console : .cli),
                wallClock: wallClock)
        } catch {
            throw CLIFailure.runtime("--store: \(error)")
        }
        let registryOptions = RegistryOptions(
            name: manifest == nil ? (flagdName ?? (linkedApps ? "Linked apps" : DemoFeatures.displayName)) : nil,
            storeWatchInterval: watchStore ? .milliseconds(500) : nil,
            assertOnProblems: false,
            // `flagstaff` opens the app's registry, or someone's manifest: it never announces one of its own.
            // What an app started with this environment would see (the CLI's own arguments are not an app's).
            launchOverrides: LaunchOverrides(environment: CommandContext.current.environment, arguments: []),
            wallClock: wallClock, announcesManifest: false)
        let registry: AnyFeatureRegistry
        var remoteConfig: RemoteConfig?
        if let manifest, let manifestPath {
            remoteConfig = try manifest.remote.map {
                try RemoteSetup.makeConfig($0, source: manifestPath, store: store.url)
            }
            do {
                registry = try ManifestRegistryBuilder.build(
                    manifest, store: store, options: registryOptions, remoteConfig: remoteConfig)
            } catch let failure as CLIFailure {
                throw failure
            } catch {
                throw CLIFailure.runtime("\(manifestPath): cannot build the registry: \(error)")
            }
        } else if let flagd {
            registry = AnyFeatureRegistry(store: store, options: registryOptions)
            flagd.attach(to: registry)
            // The console follows the file, as it follows the store.
            if watchStore { flagd.startWatching(every: .milliseconds(500)) }
            if case .failed(let reason) = flagd.status.state {
                throw CLIFailure.runtime("\(manifestPath ?? "--manifest"): \(reason)")
            }
        } else if linkedApps {
            registry = AnyFeatureRegistry(store: store, options: registryOptions)
        } else {
            let demo = DemoFeatures.registry(store: store, options: registryOptions)
            remoteConfig = demo.remoteConfig
            registry = demo
        }
        do {
            try registry.validate()
        } catch {
            let origin = manifestPath ?? "the built-in demo registry"
            throw CLIFailure.runtime("refusing to open \(origin): \(error)")
        }
        if requirement != .ignored, let storeError = registry.storeError {
            let corrupt = (storeError as? OverrideStoreError)?.isCorrupt ?? false
            if requirement == .readable || !corrupt { throw CLIFailure.runtime("\(storeError)") }
        }
        if requirement != .ignored {
            if !watchStore && notingStoredValueProblems { reportStoredValueProblems(registry, store: store.url) }
            try LaunchBaseline.replaceIfCorrupt(forStore: store.url, registry: registry)
        }
        return LoadedRegistry(
            registry: registry, storeURL: store.url, manifestPath: manifestPath,
            isStoresOwnRegistry: announced || (manifest == nil && explicitStore == nil && !linkedApps),
            manifest: manifest,
            remoteConfig: remoteConfig)
    }

    /// Says on standard error, one line per key, which store entries are not valid for the flag or setting
    /// declared under their key (a hand-edited file, an older app version): they are ignored and left in the file.
    /// (The console shows them on its own screen instead.)
    static func reportStoredValueProblems(_ registry: AnyFeatureRegistry, store: URL) {
        for problem in registry.storedValueProblems {
            StandardStreams.note("the override store \(store.path): \(problem) (left in the file)")
        }
    }

    /// Waits for another process's store lock at most `--lock-timeout` seconds, saying after 1 s who holds it
    /// (not in the console, whose screen owns the terminal).
    static func lockWait(_ options: RegistrySourceOptions, quiet: Bool) -> FileOverrideStore.LockWait {
        let context = CommandContext.current
        let note: @Sendable (FileOverrideStore.LockHolder, Duration) -> Void = { holder, _ in
            CommandContext.$current.withValue(context) {
                StandardStreams.note("waiting for the store lock held by \(holder)")
            }
        }
        return FileOverrideStore.LockWait(timeout: .seconds(options.lockTimeout), onWaiting: quiet ? nil : note)
    }

    /// Refuses an explicit store whose directory does not exist (only the default location is created).
    /// - Throws: `CLIFailure.runtime` naming the directory.
    static func checkStoreDirectory(_ path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw CLIFailure.runtime(
                "--store: the directory \(directory) does not exist; create it first (only the default store location is created)"
            )
        }
        guard isDirectory.boolValue else {
            throw CLIFailure.runtime("cannot read the override store \(path): \(directory) is not a directory")
        }
    }

    /// Where the app that uses `store` announces its manifest (beside the file at the end of the store's links).
    /// - Throws: `CLIFailure` when the store path is a link that cannot be followed.
    static func announcedManifestPath(forStore store: String) throws -> String {
        do {
            return try StoreLayout.resolving(store).announcedManifest.path
        } catch {
            throw CLIFailure.runtime("--store: \(error)")
        }
    }

    /// Reads the manifest an app announced beside its store: one of Flagstaff's own files, never read through a
    /// link (docs/files.md).
    /// - Throws: `CLIFailure` naming the file and what is wrong.
    static func loadAnnouncedManifest(_ path: String) throws -> RegistryManifest {
        let data: Data
        do throws(BoundedFileReader.Failure) {
            data = try BoundedFileReader.read(path, limit: 256 << 20, followingLinks: false) ?? Data()
        } catch {
            throw CLIFailure.runtime(
                "cannot read the manifest the app announced, \(path): \(error.reason(limit: 256 << 20))")
        }
        do {
            return try RegistryManifest.decode(data, source: path)
        } catch {
            throw CLIFailure.runtime("invalid manifest: \(error)")
        }
    }

    /// What `--manifest` names: a registry manifest, or flagd flag definitions (a JSON object whose `flags` is an
    /// object), each flag a member (docs/flagd.md).
    enum ManifestFile {
        case manifest(RegistryManifest)
        case flagd(FlagdSource)
    }

    /// Reads `--manifest`: flagd definitions when the file is a definitions document, else a manifest.
    /// - Throws: `CLIFailure` with the file, the JSON path and what was expected.
    static func loadManifestOrDefinitions(_ path: String, environment: [String: String]) throws -> ManifestFile {
        let data = try InputFile.read(path, for: "--manifest")
        guard FlagdDefinitions.isDefinitionsDocument(data) else { return .manifest(try decodeManifest(data, path)) }
        let definitions: FlagdDefinitions
        do {
            definitions = try FlagdDefinitions(json: data, source: InputFile.displayName(path))
        } catch {
            throw CLIFailure.runtime("invalid flagd definitions: \(error)")
        }
        let context = try FlagdEvalCommand.readContext(
            environment[flagdContextVariable].flatMap { $0.isEmpty ? nil : $0 }, named: flagdContextVariable)
        let file = path == "-" ? nil : URL(fileURLWithPath: path)
        return .flagd(FlagdSource(definitions: definitions, context: context, file: file))
    }

    /// The evaluation context of a flagd definitions file opened with `--manifest`: a JSON object, or `@FILE`.
    static let flagdContextVariable = "FLAGSTAFF_FLAGD_CONTEXT"

    /// The registry name (and default store name) of a flagd definitions file: `flagd-` and the file's name
    /// without its extension (`flagd-flags` for `flags.json`).
    static func flagdRegistryName(_ path: String) -> String {
        let base = path == "-" ? "stdin" : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return "flagd-" + base
    }

    /// Validates a manifest read from `path`.
    /// - Throws: `CLIFailure` with the file, the JSON path and what was expected.
    static func decodeManifest(_ data: Data, _ path: String) throws -> RegistryManifest {
        do {
            return try RegistryManifest.decode(data, source: InputFile.displayName(path))
        } catch let error as ManifestError {
            throw CLIFailure.runtime("invalid manifest: \(error)")
        } catch {
            throw CLIFailure.runtime("invalid manifest \(path): \(error)")
        }
    }
}
