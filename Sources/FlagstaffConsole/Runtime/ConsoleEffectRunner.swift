import Flagstaff
import Foundation

/// Performs the effects ``ConsoleState/update(_:)`` returns, and feeds back the events they cause: the one
/// shell of the console, used by ``FeatureConsole``, the tests and the benchmark.
///
/// Reads are answered by a ``ConsoleFeed`` on the registry; store writes go through a ``ConsoleStoreWriter`` (at
/// once when the store's lock is free, otherwise in the background, so a lock held by another process never
/// blocks the loop). The registry's change callback posts the changed keys to the ``inbox``, where they merge with
/// the keys each saved write wrote; they reach the state as one ``ConsoleEvent/flagsChanged(_:)`` with the counts
/// and the changed flags, read once. Each write comes back as ``ConsoleEvent/storeWriteSaved``
/// or ``ConsoleEvent/storeWriteFailed(_:)`` (in order), and while one waits for the lock as
/// ``ConsoleEvent/storeLocked(holder:waited:)``; a finished remote refresh comes back as
/// ``ConsoleEvent/remoteSourcesRefreshed(_:)``; a suspend as the terminal's size when the process continues.
/// Drawing is left to the caller: the runner only records that a frame (``needsFrame``) or a full repaint
/// (``needsFullRedraw``) is due. `quit` ends the terminal, stops the writer (writes still waiting for the lock
/// are listed in ``ConsoleOutcome/unsavedKeys``), records the ``outcome`` and runs the restart handler when asked
/// to.
///
/// Not thread-safe: use it from the console's thread (only the inbox is shared).
package final class ConsoleEffectRunner {
    /// The registry written to.
    package let registry: AnyFeatureRegistry
    /// Events from other threads, drained by ``send(_:to:)`` and ``sendQueuedEvents(to:)``.
    package let inbox = ConsoleInbox()
    private let terminal: any ConsoleTerminal
    private let restartHandler: (@Sendable ([PendingRestart]) throws -> Void)?
    /// What `e` on a JSON setting opens.
    private let editor: ExternalEditor
    private var subscription: ChangeSubscription?
    /// The profiles folder the picker (`p`) reads, or `nil` when there is none.
    package let profiles: ProfileLibrary?
    /// Performs the store writes (at once, or in the background while another process holds the lock).
    package let writer: ConsoleStoreWriter
    /// Answers the state's reads and turns the registry's changes into updates.
    package let feed: ConsoleFeed
    /// The background refreshes started by `Ctrl-R`.
    package private(set) var refreshTasks: [Task<Void, Never>] = []
    /// The session's result, once a quit effect ran.
    package private(set) var outcome: ConsoleOutcome?
    /// Whether a frame should be drawn.
    package var needsFrame = true
    /// Keys typed ahead that the state handed back (``ConsoleEffect/handleKeys(_:)``): the loop's next input.
    private var typedAhead: [ConsoleKey] = []

    /// Takes the keys typed ahead that the state handed back, if any: the loop sends them as its next event,
    /// after drawing a frame.
    package func takeTypedAhead() -> [ConsoleKey]? {
        guard !typedAhead.isEmpty else { return nil }
        defer { typedAhead = [] }
        return typedAhead
    }
    /// Whether the next frame must repaint every cell.
    package var needsFullRedraw = false

    /// Creates a runner and subscribes to the registry's changes (until ``stop()`` or deinit).
    /// - Parameters:
    ///   - registry: the registry the effects write to.
    ///   - terminal: the terminal to suspend and end.
    ///   - restartHandler: what "restart now" runs, after the terminal is ended.
    ///   - clock: the clock a write waiting for the store's lock retries on.
    ///   - editor: what `e` on a JSON setting opens (the terminal is handed over while it runs).
    ///   - profiles: the profiles folder; `nil` takes the one beside the registry's file store (none without one).
    package init(
        registry: AnyFeatureRegistry, terminal: any ConsoleTerminal,
        restartHandler: (@Sendable ([PendingRestart]) throws -> Void)? = nil,
        clock: any Clock<Duration> = ContinuousClock(), editor: ExternalEditor = ExternalEditor(),
        profiles: ProfileLibrary? = nil
    ) {
        self.editor = editor
        self.profiles = profiles ?? ProfileCatalog.defaultLibrary(for: registry)
        self.registry = registry
        self.terminal = terminal
        self.restartHandler = restartHandler
        let inbox = self.inbox
        writer = ConsoleStoreWriter(registry: registry, clock: clock, inbox: inbox)
        feed = ConsoleFeed(source: RegistryFlagSource(registry))
        subscription = registry.onChange { change in inbox.post(change) }
        // The members' byte order a change to marked flags needs, sorted now in the background rather than on the
        // first such change.
        DispatchQueue.global(qos: .utility).async { [weak registry] in registry?.prepareForBulkChanges() }
    }

    deinit { stop() }

    /// Stops listening to the registry and stops the background writes.
    package func stop() {
        subscription?.cancel()
        subscription = nil
        writer.stop()
    }

    /// The state for this registry, as it opens (its first reads answered).
    /// - Parameters:
    ///   - title: the header title; the registry's name when `nil`.
    ///   - width: terminal columns.
    ///   - height: terminal rows.
    ///   - useColor: whether colours are drawn.
    ///   - asciiOnly: whether only ASCII may be drawn.
    ///   - showDetail: whether the detail pane starts open.
    /// - Throws: what the restart handler throws (it cannot run while opening).
    package func open(
        title: String? = nil, width: Int = 100, height: Int = 30, useColor: Bool = true, asciiOnly: Bool = false,
        showDetail: Bool = true
    ) throws -> ConsoleState {
        var state = ConsoleState(
            start: feed.start(), title: title, width: width, height: height, useColor: useColor,
            asciiOnly: asciiOnly, showDetail: showDetail)
        try send(.opened, to: &state)
        return state
    }

    /// Sends a tick with the registry's time, after the flags registered at runtime since the last look.
    /// - Parameters:
    ///   - sinceLastFrame: the time since the last frame was drawn.
    ///   - state: the state.
    /// - Throws: what the restart handler throws.
    package func tick(sinceLastFrame: Duration, to state: inout ConsoleState) throws {
        if let update = feed.registrations() { try send(.flagsChanged(update), to: &state) }
        try send(.tick(now: registry.now, sinceLastFrame: sinceLastFrame), to: &state)
    }

    /// Feeds an event to the state, performs the effects, and feeds back every event they cause (and any
    /// queued in the inbox) until nothing is left or the session ended.
    /// - Throws: what the restart handler throws.
    package func send(_ event: ConsoleEvent, to state: inout ConsoleState) throws {
        guard outcome == nil else { return }
        try run(state.update(event), on: &state)
    }

    /// Performs effects, then feeds back the events they caused and those queued in the inbox.
    /// - Throws: what the restart handler throws.
    package func run(_ effects: [ConsoleEffect], on state: inout ConsoleState) throws {
        var caused: [ConsoleEvent] = []
        for effect in effects {
            caused += try perform(effect, state: state)
            if outcome != nil { return }
        }
        for event in caused + drainInbox() { try send(event, to: &state) }
    }

    /// The events queued by other threads, the merged flag changes first.
    private func drainInbox() -> [ConsoleEvent] {
        let (changes, events) = inbox.drain()
        guard let changes else { return events }
        return [.flagsChanged(feed.update(changes))] + events
    }

    /// Feeds the events queued by other threads (registry changes, finished refreshes).
    /// - Throws: what the restart handler throws.
    package func sendQueuedEvents(to state: inout ConsoleState) throws {
        for event in drainInbox() where outcome == nil { try send(event, to: &state) }
    }

    /// Performs one effect.
    /// - Returns: the events it caused.
    private func perform(_ effect: ConsoleEffect, state: ConsoleState) throws -> [ConsoleEvent] {
        switch effect {
        case .write(let change):
            return writer.submit(change)
        case .read(let read):
            return [feed.answer(read)]
        case .loadProfiles:
            guard let profiles else {
                return [
                    .profilesLoaded(
                        ProfileListing(
                            folder: "", entries: [],
                            problem: "No profiles folder: the override store is not a file (profiles live beside it)"))
                ]
            }
            return [.profilesLoaded(ProfileCatalog.listing(of: profiles, for: registry))]
        case .saveProfile(let name):
            guard let profiles else { return [] }
            let overrides = registry.storedOverrides
            let message: String
            do {
                try profiles.save(Profile(name: name, overrides: overrides))
                message = "Saved profile \(name): \(overrides.count) override\(overrides.count == 1 ? "" : "s")"
            } catch {
                message = "Could not save the profile: \(error)"
            }
            return [.profilesChanged(message: message, listing: ProfileCatalog.listing(of: profiles, for: registry))]
        case .deleteProfile(let name):
            guard let profiles else { return [] }
            let message: String
            do {
                try profiles.delete(name)
                message = "Deleted profile \(name)"
            } catch {
                message = "Could not delete the profile: \(error)"
            }
            return [.profilesChanged(message: message, listing: ProfileCatalog.listing(of: profiles, for: registry))]
        case .editExternally(let key, let text):
            let result = terminal.handOver { editor.edit(text, name: key) }
            let size = terminal.size
            return [.resize(width: size.width, height: size.height), .externalEditFinished(key: key, result: result)]
        case .loadHistory:
            return [.historyLoaded(Self.readHistory(of: registry))]
        case .refreshRemoteSources:
            let inbox = self.inbox
            let flags = feed.source
            for source in registry.remoteSources {
                refreshTasks.append(
                    Task.detached {
                        await source.refresh()
                        inbox.post(.remoteSourcesRefreshed(ConsoleFeed.status(of: flags)))
                    })
            }
        case .handleKeys(let keys):
            typedAhead = keys
        case .repaint:
            needsFrame = true
        case .redrawAll:
            needsFrame = true
            needsFullRedraw = true
        case .suspend:
            terminal.suspend()
            let size = terminal.size
            return [.resize(width: size.width, height: size.height)]
        case .quit(let choice, let signal, let restarts):
            terminal.end()
            let unsaved = writer.stop()
            stop()
            var outcome = feed.outcome(choice: choice, signal: signal)
            outcome.unsavedKeys = unsaved
            self.outcome = outcome
            if choice == .restartNow, let restartHandler { try restartHandler(restarts) }
        }
        return []
    }
}

/// Which flags changed since the console last looked.
package enum ChangedFlags: Sendable, Equatable {
    /// These keys.
    case keys(Set<String>)
    /// More than ``ConsoleFeed/listedChangeLimit`` keys: not listed (a set of 100,000 keys costs more to make than
    /// a pass over every flag).
    case many

    /// These keys, or ``many`` above ``ConsoleFeed/listedChangeLimit`` of them.
    package init(_ keys: some Collection<String>) {
        self = keys.count > ConsoleFeed.listedChangeLimit ? .many : .keys(Set(keys))
    }

    /// Both changes, merged.
    func merged(with other: ChangedFlags?) -> ChangedFlags {
        guard case .keys(var keys) = self, case .keys(let more)? = other else { return other == nil ? self : .many }
        keys.formUnion(more)
        return keys.count > ConsoleFeed.listedChangeLimit ? .many : .keys(keys)
    }
}

/// What arrives from other threads (registry change callbacks, remote refreshes finishing, writes landing),
/// queued for the console's loop. Changes of flags are merged into one ``ChangedFlags``.
///
/// Thread safety: ``post(_:)-(FeatureChange)`` and ``post(_:)-(ConsoleEvent)`` may be called from any thread;
/// ``drain()`` from the loop.
package final class ConsoleInbox: Sendable {
    private struct Queue {
        var changes: ChangedFlags?
        var others: [ConsoleEvent] = []
    }

    private let queue = AnnotatedMutex(Queue())

    /// Creates an empty inbox.
    package init() {}

    /// Queues a registry change, merged with those already queued.
    package func post(_ change: FeatureChange) {
        // The change's set of keys is made only when it is listed.
        post(change.keyCount > ConsoleFeed.listedChangeLimit ? .many : .keys(change.keys))
    }

    /// Queues changed keys (those a write wrote), merged with those already queued.
    package func post(_ changes: ChangedFlags) {
        if changes == .keys([]) { return }
        queue.withLock { queue in queue.changes = changes.merged(with: queue.changes) }
    }

    /// Queues an event.
    package func post(_ event: ConsoleEvent) {
        queue.withLock { $0.others.append(event) }
    }

    /// Takes everything queued: the merged flag changes, and the other events in order.
    package func drain() -> (changes: ChangedFlags?, events: [ConsoleEvent]) {
        queue.withLock { queue in
            defer { queue = Queue() }
            return (queue.changes, queue.others)
        }
    }
}
