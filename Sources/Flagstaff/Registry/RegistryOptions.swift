/// Options for creating a registry (``FeatureRegistry``, or an ``AnyFeatureRegistry`` from a manifest).
public struct RegistryOptions: Sendable {
    /// The display name; `nil` for the manifest's name, or the root group's label, else its type name humanised
    /// (`AppFeatures` → "App Features").
    public var name: String?
    /// How often to check the override store for changes made by other processes; `nil` disables watching.
    public var storeWatchInterval: Duration?
    /// Whether declaration problems (duplicate keys) trigger `assertionFailure` in debug builds.
    public var assertOnProblems: Bool
    /// The clock the store watcher waits on between checks (`ContinuousClock()` unless a test passes a
    /// manual clock, which it then advances by `storeWatchInterval` to trigger a check).
    public var clock: any Clock<Duration>
    /// The values the app was started with (see ``LaunchOverrides``): the process's `FLAGSTAFF_OVERRIDES` and
    /// `-flagstaff` arguments unless a test or tool passes its own (`.none` for none).
    public var launchOverrides: LaunchOverrides
    /// The date and time that decides when overrides expire (``OverrideExpiry``): the system's unless a test
    /// passes a `ManualClock` (usually the same one as ``clock``).
    public var wallClock: any WallClock
    /// Whether a registry with a `FileOverrideStore` announces its manifest beside the store
    /// (`<store>.manifest.json`, see ``AnyFeatureRegistry/announcedManifest(at:)``), so that `flagstaff` and the
    /// console given only the store open the app's own registry. Apps leave it on; tools that open someone else's
    /// registry (the `flagstaff` command) turn it off.
    public var announcesManifest: Bool

    /// Creates options.
    /// - Parameters:
    ///   - name: the display name, or `nil` for the default (see ``name``).
    ///   - storeWatchInterval: the store polling interval (default 0.5 s), or `nil` for none.
    ///   - assertOnProblems: whether problems assert in debug builds (default `true`).
    ///   - clock: the clock the store watcher waits on (default `ContinuousClock()`).
    ///   - launchOverrides: the values the app was started with (default: this process's).
    ///   - wallClock: the date and time that decides when overrides expire (default: the system's).
    ///   - announcesManifest: whether a file store gets the registry's manifest beside it (default `true`).
    public init(
        name: String? = nil, storeWatchInterval: Duration? = .milliseconds(500), assertOnProblems: Bool = true,
        clock: any Clock<Duration> = ContinuousClock(), launchOverrides: LaunchOverrides = .process,
        wallClock: any WallClock = SystemWallClock(), announcesManifest: Bool = true
    ) {
        self.announcesManifest = announcesManifest
        self.wallClock = wallClock
        self.launchOverrides = launchOverrides
        self.name = name
        self.storeWatchInterval = storeWatchInterval
        self.assertOnProblems = assertOnProblems
        self.clock = clock
    }
}
