import Dispatch
import Flagstaff
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive feature console: browse, search and force a registry's flags in the terminal.
///
/// ```swift
/// let outcome = try FeatureConsole(registry: registry, options: ConsoleOptions(title: "Moments")).run()
/// if outcome.needsRestart { print("Restart to apply: \(outcome.restartRequiredKeys)") }
/// ```
///
/// `run()` takes over the terminal until the user quits, then restores it (also on `SIGINT`, `SIGTERM`,
/// `SIGHUP` and errors). Overrides are persisted through the registry's store as they are made. Changes
/// made by another process to the store, and remote updates, show as soon as the registry reports them,
/// with the cursor kept on the same flag and the search kept.
public final class FeatureConsole {
    /// The registry shown and changed.
    public let registry: FeatureRegistry
    /// Options.
    public let options: ConsoleOptions

    /// Creates a console for a registry. Nothing happens until ``run()``.
    /// - Parameters:
    ///   - registry: the flags to show and change.
    ///   - options: title, colours, glyphs and the restart handler.
    public init(registry: FeatureRegistry, options: ConsoleOptions = ConsoleOptions()) {
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
    /// - Parameter terminal: where to draw and read keys.
    /// - Returns: what changed, what needs a restart, and the user's restart choice.
    /// - Throws: whatever the restart handler throws.
    public func run(on terminal: some ConsoleTerminal) throws -> ConsoleOutcome {
        // Only overridden flags: every other flag starts at `.featureDefault` (hashing 100,000 keys here would
        // delay the first frame).
        let initialOverrides = Dictionary(registry.overriddenFeatures.map { ($0.key, $0.override) }, uniquingKeysWith: { a, _ in a })
        let changed = ChangeFlag()
        let subscription = registry.onChange { _ in changed.set() }
        defer {
            subscription.cancel()
            terminal.end()
        }
        // The first search builds the registry's search index (about 0.2 s for 100,000 flags): build it while
        // the user reads the first screen, so the first keystroke does not wait for it.
        let registry = self.registry
        DispatchQueue.global(qos: .utility).async { _ = registry.search("") }
        let size = terminal.size
        var state = ConsoleState(
            registry: registry, title: options.title, width: size.width, height: size.height,
            useColor: options.useColor && terminal.supportsColor, asciiOnly: !terminal.supportsUnicode
        )
        if !options.showDetail { state.showDetail = false }
        var needsDraw = true
        var typeahead: [ConsoleKey] = []
        let clock = ContinuousClock()
        var lastDraw = clock.now
        var keyTime: ContinuousClock.Instant?  // when the first key not yet answered by a frame was read
        while true {
            if changed.take() {
                state.refresh()
                needsDraw = true
            }
            if needsDraw {
                terminal.draw(ConsoleLayout.render(state))
                needsDraw = false
                lastDraw = clock.now
                if let keyTime, let observer = options.frameObserver { observer(lastDraw - keyTime) }
                keyTime = nil
            }
            var effects: [ConsoleEffect]
            var endingSignal: Int32?
            // Keys typed ahead are handled before waiting again; a run of query edits searches only once.
            let event = typeahead.isEmpty ? terminal.nextEvent() : .key(typeahead.removeFirst())
            if case .key = event, keyTime == nil { keyTime = clock.now }
            if case let .key(key) = event, state.isQueryEdit(key) {
                typeahead += terminal.pendingKeys()
                let run = [key] + typeahead.prefix { state.isQueryEdit($0) }
                typeahead.removeFirst(run.count - 1)
                state.handle(typing: run)
                needsDraw = true
                continue
            }
            switch event {
            case .idle:
                // Remote-source status (fetch times, errors) changes without a flag change: repaint each
                // second while sources are attached (only changed cells reach the terminal).
                if !registry.remoteSources.isEmpty, clock.now - lastDraw >= .seconds(1) { needsDraw = true }
                continue
            case let .key(key):
                effects = state.handle(key)
            case .signal(SIGTSTP):
                terminal.suspend()
                let size = terminal.size
                effects = state.handle(.resize(width: size.width, height: size.height))
            case .signal(SIGINT):
                // Ctrl-C quits through the restart prompt; a second one (in the prompt) quits keeping changes.
                endingSignal = SIGINT
                effects = state.mode == .restartPrompt ? [.quit(.later)] : state.handle(.control("c"))
            case let .signal(signal):
                terminal.end()
                return outcome(initialOverrides, choice: registry.featuresRequiringRestart.isEmpty ? .notNeeded : .later, signal: signal)
            }
            needsDraw = true
            for effect in effects {
                if case let .quit(choice) = effect {
                    terminal.end()
                    let result = outcome(initialOverrides, choice: choice, signal: endingSignal)
                    if choice == .restartNow, let handler = options.restartHandler {
                        try handler(state.pendingRestarts)
                    }
                    return result
                }
                perform(effect, initialOverrides: initialOverrides, state: &state, terminal: terminal)
            }
        }
    }

    /// Carries out one non-quit effect against the registry or the terminal.
    private func perform(
        _ effect: ConsoleEffect, initialOverrides: [String: OverrideState], state: inout ConsoleState,
        terminal: some ConsoleTerminal
    ) {
        do {
            switch effect {
            case let .setOverride(key, overrideState):
                guard let feature = registry.feature(forKey: key) else { return }
                try registry.setOverride(overrideState, for: feature)
            case .resetAll:
                try registry.resetAllOverrides()
            case let .restoreLaunchValues(keys):
                for key in keys {
                    guard let feature = registry.feature(forKey: key) else { continue }
                    try registry.setOverride(initialOverrides[key] ?? .featureDefault, for: feature)
                    if feature.enabled != feature.launchValue {
                        try registry.setOverride(OverrideState(forcing: feature.launchValue), for: feature)
                    }
                }
            case .redraw:
                terminal.invalidate()
                return
            case .refreshRemoteSources:
                for source in registry.remoteSources {
                    Task.detached { await source.refresh() }
                }
                return
            case .restartNow, .quit:
                return
            }
        } catch {
            state.statusMessage = "Could not save the change: \(error)"
        }
        let message = state.statusMessage
        state.refresh()
        state.statusMessage = message
    }

    /// The session's result from the registry's state now.
    private func outcome(_ initial: [String: OverrideState], choice: RestartChoice, signal: Int32?) -> ConsoleOutcome {
        let changed = registry.allFeatures.filter { $0.override != (initial[$0.key] ?? .featureDefault) }.map(\.key)
        let pending = registry.featuresRequiringRestart.map(\.key)
        return ConsoleOutcome(changedKeys: changed.sorted(), restartRequiredKeys: pending.sorted(), restartChoice: choice, signal: signal)
    }
}

/// A flag set from the registry's change callbacks (any thread) and taken by the console loop.
private final class ChangeFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .releasing) }
    func take() -> Bool { flag.exchange(false, ordering: .acquiringAndReleasing) }
}
