import Foundation

/// How a ``FeatureConsole`` looks and what it does on "restart now".
public struct ConsoleOptions: Sendable {
    /// The header title after "Flagstaff ·"; the registry's name when `nil`.
    public var title: String?
    /// Whether to use colours. Defaults to ``colorAllowedByEnvironment`` (off when `NO_COLOR` is set to
    /// anything non-empty); a terminal without colours turns them off regardless.
    public var useColor: Bool
    /// `true` forces ASCII glyphs, `false` forces Unicode, `nil` follows the locale (Unicode only when UTF-8).
    public var asciiOnly: Bool?
    /// Whether the detail pane starts open (it is toggled with `i` and only shown with at least 20 rows).
    public var showDetail: Bool
    /// Called when the user picks "restart now" in the restart prompt, after the terminal has been restored,
    /// with the flags whose change needs the restart. `nil`: the console only reports the choice in
    /// ``ConsoleOutcome/restartChoice`` and the caller says what must be restarted.
    public var restartHandler: (@Sendable ([PendingRestart]) throws -> Void)?
    /// Called after each frame drawn in answer to keys, with the time from reading the (first) key to the
    /// frame handed to the terminal: for measuring the console inside an app or a real terminal. Runs on the
    /// console's thread; keep it cheap.
    public var frameObserver: (@Sendable (_ keyToFrame: Duration) -> Void)?
    /// The clock the console reads: the once-a-second repaint while remote sources are attached and the
    /// times given to ``frameObserver``. `ContinuousClock()` unless a test gives another.
    public var clock: any Clock<Duration>
    /// The shell command `e` opens on a JSON setting (the file's path is appended); `nil` takes `$VISUAL`, else
    /// `$EDITOR`, else `vi`.
    public var editorCommand: String?
    /// The profiles folder the profile picker (`p`) lists; `nil` takes the one beside the registry's
    /// `FileOverrideStore` (`overrides.json` → `overrides.profiles/`). With another store and no folder the
    /// picker says there is none.
    package var profilesFolder: URL?

    /// Creates options.
    /// - Parameters:
    ///   - title: the header title; the registry's name when `nil`.
    ///   - useColor: whether to use colours; follows `NO_COLOR` unless given.
    ///   - asciiOnly: force ASCII (`true`) or Unicode (`false`) glyphs; `nil` follows the locale.
    ///   - showDetail: whether the detail pane starts open.
    ///   - restartHandler: what "restart now" runs (after the terminal is restored); errors it throws are
    ///     rethrown by ``FeatureConsole/run()``.
    ///   - clock: the clock for the console's ticks and frame times; `ContinuousClock()` unless given.
    public init(
        title: String? = nil, useColor: Bool = ConsoleOptions.colorAllowedByEnvironment, asciiOnly: Bool? = nil,
        showDetail: Bool = true, restartHandler: (@Sendable ([PendingRestart]) throws -> Void)? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.clock = clock
        self.title = title
        self.useColor = useColor
        self.asciiOnly = asciiOnly
        self.showDetail = showDetail
        self.restartHandler = restartHandler
    }

    /// `false` when the `NO_COLOR` environment variable is set to a non-empty value (https://no-color.org).
    public static var colorAllowedByEnvironment: Bool {
        (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
}
