import Dispatch
import Flagstaff

/// The interactive feature console: browse, search and force a registry's flags in the terminal.
///
/// ```swift
/// let outcome = try FeatureConsole(registry: registry, options: ConsoleOptions(title: "Moments")).run()
/// if outcome.needsRestart { print("Restart to apply: \\(outcome.restartRequiredKeys)") }
/// ```
///
/// `run()` takes over the terminal until the user quits, then restores it (also on `SIGINT`, `SIGTERM`,
/// `SIGHUP` and errors). Overrides are persisted through the registry's store as they are made; while another
/// process holds a file store's lock the write is retried in the background and the console keeps answering
/// (``ConsoleOutcome/unsavedKeys`` lists what was still waiting when it closed). Changes
/// made by another process to the store, and remote updates, show as soon as the registry reports them,
/// with the cursor kept on the same flag and the search kept.
public final class FeatureConsole {
    /// The registry shown and changed.
    public let registry: AnyFeatureRegistry
    /// Options.
    public let options: ConsoleOptions

    /// Creates a console for a registry. Nothing happens until ``run()``.
    /// - Parameters:
    ///   - registry: the flags to show and change.
    ///   - options: title, colours, glyphs and the restart handler.
    public init(registry: AnyFeatureRegistry, options: ConsoleOptions = ConsoleOptions()) {
        self.registry = registry
        self.options = options
    }

    /// Runs the console in the process's terminal until the user quits.
    /// - Returns: what changed, what needs a restart, and the user's restart choice.
    /// - Throws: ``ConsoleError/notATerminal(stream:)`` when stdin or stdout is not a terminal (standalone
    ///   tools exit with status 2), ``ConsoleError/terminalUnavailable(term:)`` when the terminal cannot be
    ///   initialised, and whatever the restart handler throws.
    public func run() throws -> ConsoleOutcome {
        let terminal = try NCursesTerminal(useColor: options.useColor, asciiOnly: options.asciiOnly)
        defer { terminal.end() }
        return try run(on: terminal)
    }

    /// Runs the console on a given terminal (the real one, or a ``ScriptedTerminal`` in tests).
    ///
    /// The loop only reads events, hands them to ``ConsoleEffectRunner`` (which feeds them to
    /// ``ConsoleState/update(_:)`` and performs the effects) and draws when a frame is due.
    /// - Parameter terminal: where to draw and read keys.
    /// - Returns: what changed, what needs a restart, and the user's restart choice.
    /// - Throws: whatever the restart handler throws.
    package func run(on terminal: some ConsoleTerminal) throws -> ConsoleOutcome {
        try run(on: terminal, clock: options.clock)
    }

    private func run<C: Clock<Duration>>(on terminal: some ConsoleTerminal, clock: C) throws -> ConsoleOutcome {
        defer { terminal.end() }
        let runner = ConsoleEffectRunner(
            registry: registry, terminal: terminal, restartHandler: options.restartHandler, clock: clock,
            editor: ExternalEditor(command: options.editorCommand),
            profiles: options.profilesFolder.map { ProfileLibrary(folder: $0, createsFolder: false) })
        defer { runner.stop() }
        // The first search builds the registry's search index (about 0.2 s for 100,000 flags): build it while
        // the user reads the first screen, so the first keystroke does not wait for it.
        let registry = self.registry
        DispatchQueue.global(qos: .utility).async { _ = registry.search("") }
        let size = terminal.size
        var state = try runner.open(
            title: options.title, width: size.width, height: size.height,
            useColor: options.useColor && terminal.supportsColor, asciiOnly: !terminal.supportsUnicode,
            showDetail: options.showDetail)
        var lastFrame = clock.now
        var keyTime: C.Instant?  // when the first key not yet answered by a frame was read
        while true {
            try runner.sendQueuedEvents(to: &state)
            if let outcome = runner.outcome { return outcome }
            if runner.needsFrame {
                if runner.needsFullRedraw { terminal.invalidate() }
                terminal.draw(ConsoleLayout.render(state))
                runner.needsFrame = false
                runner.needsFullRedraw = false
                lastFrame = clock.now
                if let keyTime, let observer = options.frameObserver { observer(keyTime.duration(to: lastFrame)) }
                keyTime = nil
            }
            // Keys typed ahead go to the state together (a run of query edits searches only once); those it hands
            // back come before anything new from the terminal.
            switch runner.takeTypedAhead().map(ConsoleEvent.keys) ?? terminal.nextEvent() {
            case .key(let key)?:
                if keyTime == nil { keyTime = clock.now }
                let typedAhead = terminal.pendingKeys()
                try runner.send(typedAhead.isEmpty ? .key(key) : .keys([key] + typedAhead), to: &state)
            case .keys(let keys)?:
                if keyTime == nil { keyTime = clock.now }
                try runner.send(.keys(keys), to: &state)
            case let event?:
                try runner.send(event, to: &state)
            case nil:
                try runner.tick(sinceLastFrame: lastFrame.duration(to: clock.now), to: &state)
            }
            if let outcome = runner.outcome { return outcome }
        }
    }
}
