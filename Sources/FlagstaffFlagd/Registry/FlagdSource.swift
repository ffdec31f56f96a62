import Flagstaff
import FlagstaffRemote
import Foundation
import Synchronization

/// flagd flag definitions as a registry source: the app's flags evaluated in-process for the app's own evaluation
/// context, with QA's overrides above them.
///
/// ```swift
/// let flagd = try FlagdSource(contentsOf: definitionsURL, context: ["targetingKey": .string(user.id)])
/// flagd.attach(to: features)      // a member for every flag, under "flagd"; status and Ctrl-R in the console
/// flagd.setContext(["targetingKey": .string(user.id), "email": .string(user.email)])   // re-evaluates
/// ```
///
/// Every flag is evaluated when the definitions or the context change (not on each read: a read takes a lock and
/// a table lookup), and the registry is told which members' evaluations changed (value, variant or reason), so
/// their Observation and `onChange` subscribers run, and no others. A rule on `$flagd.timestamp` sees the time of
/// that evaluation.
public final class FlagdSource: RemoteSource, SettingRemoteSource {
    /// `"flagd"`.
    public let name = "flagd"
    /// Advanced after every change of the evaluations: settings bound to this source decode their value again.
    public let settingValueGeneration = SettingSourceGeneration()
    /// The definitions file, when the source reads one (``refresh()`` reads it again).
    public let fileURL: URL?
    /// The definitions' HTTP address, when the source fetches them (``refresh()`` fetches again).
    public let remoteURL: URL?
    /// The HTTP client of a source that fetches its definitions.
    let http: FlagdHTTPFetch?

    private struct State {
        var definitions: FlagdDefinitions
        var context: [String: JSONSettingValue]
        var evaluations: [String: FlagdEvaluation] = [:]
        var loadedAt: Date?
        var failure: String?
        weak var registry: AnyFeatureRegistry?
        var group = "flagd"
        var watch: Task<Void, Never>?
        /// The file's status when it was last read (taken before reading, so a change while it is read is seen).
        var fileStatus: FileStatus?
        /// The `ETag` of the definitions last fetched, sent back as `If-None-Match`.
        var etag: String?
        /// Whether the definitions have come from the HTTP address yet.
        var neverFetched = false
    }

    private let state: Mutex<State>

    /// A source over definitions already loaded.
    /// - Parameters:
    ///   - definitions: the definitions.
    ///   - context: the evaluation context (`targetingKey` and any attributes).
    ///   - file: the file they were read from, if ``refresh()`` and ``reload()`` should read it again.
    public convenience init(
        definitions: FlagdDefinitions, context: [String: JSONSettingValue] = [:], file: URL? = nil
    ) {
        // The caller read the file: its status now stands for what was read.
        let status = file.flatMap { try? Platform.status(atPath: $0.path, followingLinks: true) }
        self.init(definitions: definitions, context: context, file: file, fileStatus: status)
    }

    private init(
        definitions: FlagdDefinitions, context: [String: JSONSettingValue], file: URL?, fileStatus: FileStatus?
    ) {
        fileURL = file
        remoteURL = nil
        http = nil
        state = Mutex(State(definitions: definitions, context: context, fileStatus: fileStatus))
        state.withLock { Self.evaluateAll(&$0) }
    }

    /// A source over a definitions file (read again by ``refresh()`` and ``reload()``).
    /// - Parameters:
    ///   - url: the file.
    ///   - context: the evaluation context.
    ///   - bucketing: how `fractional` hashes (version 2, flagd's servers today, by default).
    /// - Throws: ``FlagdDefinitionsError`` naming the file (and the JSON path) when it cannot be read or loaded.
    public convenience init(
        contentsOf url: URL, context: [String: JSONSettingValue] = [:], bucketing: FlagdBucketing = .version2
    ) throws(FlagdDefinitionsError) {
        let status = try? Platform.status(atPath: url.path, followingLinks: true)
        self.init(
            definitions: try Self.load(url, bucketing: bucketing), context: context, file: url, fileStatus: status)
    }

    /// A source whose definitions come from an HTTP address, as flagd's HTTP sync fetches them: `GET` with
    /// `If-None-Match` (the last answer's `ETag`); `304 Not Modified` keeps the definitions, `200` replaces them. No
    /// flags until the first fetch: call ``refresh()`` (once, or when the app wants) or ``startWatching(every:)``
    /// (every interval). A failed fetch keeps the definitions before and says why in ``status``.
    /// - Parameters:
    ///   - url: the definitions' address (`http` or `https`).
    ///   - context: the evaluation context.
    ///   - headers: header fields to send (an `Authorization`, say).
    ///   - bucketing: how `fractional` hashes.
    ///   - timeout: the longest a fetch may take.
    public init(
        url: URL, context: [String: JSONSettingValue] = [:], headers: [String: String] = [:],
        bucketing: FlagdBucketing = .version2, timeout: Duration = .seconds(10)
    ) {
        fileURL = nil
        remoteURL = url
        http = FlagdHTTPFetch(url: url, headers: headers, timeout: timeout)
        let empty = FlagdDefinitions(flagsByKey: [:], bucketing: bucketing)
        var initial = State(definitions: empty, context: context)
        initial.neverFetched = true
        state = Mutex(initial)
        state.withLock { Self.evaluateAll(&$0) }
    }

    deinit {
        state.withLock { $0.watch?.cancel() }
    }

    /// Watches the definitions file: every `interval` its status (size, modification time, inode) is compared with
    /// its status when it was last read, and a change reads it again as ``reload()`` does (a file that cannot be loaded, say while
    /// it is being written, leaves the definitions before in use and ``status`` `.failed`; the next change is read
    /// again). A source without a file watches nothing. The source is held weakly; ``stopWatching()`` or the
    /// source's end stops the watch.
    /// - Parameter interval: how often to look at the file.
    public func startWatching(every interval: Duration = .seconds(1)) {
        if let http {
            let task = Task.detached { [weak self] in
                while !Task.isCancelled {
                    guard let self else { return }
                    await self.fetch(http)
                    try? await Task.sleep(for: interval)
                }
            }
            state.withLock { state in
                state.watch?.cancel()
                state.watch = task
            }
            return
        }
        guard let path = fileURL?.path else { return }
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                let now = try? Platform.status(atPath: path, followingLinks: true)
                guard now != self.state.withLock({ $0.fileStatus }) else { continue }
                do throws(FlagdDefinitionsError) {
                    try self.reload()
                } catch {
                    // Not again until the file changes once more.
                    self.state.withLock { state in
                        state.failure = error.description
                        state.fileStatus = now
                    }
                }
            }
        }
        state.withLock { state in
            state.watch?.cancel()
            state.watch = task
        }
    }

    /// Stops watching the definitions file.
    public func stopWatching() {
        state.withLock { state in
            state.watch?.cancel()
            state.watch = nil
        }
    }

    /// The definitions evaluated now.
    public var definitions: FlagdDefinitions { state.withLock { $0.definitions } }

    /// The evaluation context now.
    public var context: [String: JSONSettingValue] { state.withLock { $0.context } }

    /// The current evaluation of the flag `key`, or `nil` when the definitions lack it.
    /// - Parameter key: the flag's key.
    public func evaluation(of key: String) -> FlagdEvaluation? { state.withLock { $0.evaluations[key] } }

    /// `.ok` once loaded, `.failed` when the last ``refresh()`` could not read the file (the definitions before
    /// it stay in use).
    public var status: RemoteSourceStatus {
        state.withLock { state in
            RemoteSourceStatus(
                lastFetch: state.neverFetched ? nil : state.loadedAt,
                state: state.failure.map { .failed($0) } ?? (state.neverFetched ? .neverFetched : .ok))
        }
    }

    /// Reads the definitions file again, or fetches them from their HTTP address (the console's Ctrl-R); a source
    /// over definitions given to it has nothing to do.
    public func refresh() async {
        if let http {
            await fetch(http)
            return
        }
        do {
            try reload()
        } catch {
            state.withLock { $0.failure = error.description }
        }
    }

    /// Evaluates every flag for a new context and tells the registry which members changed.
    /// - Parameter context: the evaluation context.
    public func setContext(_ context: [String: JSONSettingValue]) {
        apply { $0.context = context }
    }

    /// Evaluates new definitions (keeping the context), registers members for flags that are new and tells the
    /// registry which members changed (a flag that is gone leaves its member on its own default).
    /// - Parameter definitions: the definitions.
    public func reload(from definitions: FlagdDefinitions) {
        apply { $0.definitions = definitions }
    }

    /// Reads the definitions file again, as ``reload(from:)``.
    /// - Throws: ``FlagdDefinitionsError`` naming the file; the definitions before stay in use.
    public func reload() throws(FlagdDefinitionsError) {
        guard let fileURL else { return }
        let status = try? Platform.status(atPath: fileURL.path, followingLinks: true)
        let definitions = try Self.load(fileURL, bucketing: self.definitions.bucketing)
        apply { state in
            state.definitions = definitions
            state.fileStatus = status
        }
    }

    /// A binding of a `Setting` to the value of the flag `flagKey`:
    /// `Setting(default: "blue", remote: flagd.binding("button-color"))`. The setting takes the flag's value while
    /// an evaluation gives one (and the value fits the setting's type), else its default.
    /// - Parameter flagKey: the flag's key.
    public func binding(_ flagKey: String) -> SettingRemoteBinding {
        SettingRemoteBinding(source: self, key: flagKey)
    }

    /// The flag's value as text (a string as itself, anything else as JSON), with the variant and the reason.
    public func settingRemoteValue(forKey key: String) -> RemoteSettingValue? {
        let (evaluation, loadedAt) = state.withLock { ($0.evaluations[key], $0.loadedAt) }
        guard let evaluation, let value = evaluation.value else { return nil }
        let text: String
        if case .string(let string) = value { text = string } else { text = value.overrideValue.json }
        return RemoteSettingValue(
            text: text, provider: name, fetchedAt: loadedAt, detail: Self.detail(of: evaluation))
    }

    /// `variant "on", TARGETING_MATCH`; with an error, its code and message.
    static func detail(of evaluation: FlagdEvaluation) -> String {
        if let code = evaluation.errorCode {
            return "\(evaluation.reason), \(code): \(evaluation.errorMessage ?? "")"
        }
        guard let variant = evaluation.variant else { return "no variant, \(evaluation.reason)" }
        return "variant \(JSONText.quoted(variant)), \(evaluation.reason)"
    }

    // MARK: Registry

    /// Backs registry members with these definitions.
    ///
    /// Attaches the source to the registry (status and Ctrl-R in the console), registers a member in `group` for
    /// every flag no ``FlagdFeature`` of the registry and no setting bound with ``binding(_:)`` stands for (and no
    /// member has as its key) — see ``member(for:)`` — and from now on tells the registry which members changed.
    /// The registry is held weakly. Attach a registry once.
    /// - Parameters:
    ///   - registry: the registry.
    ///   - group: the group key of the members registered (default `flagd`).
    public func attach(to registry: AnyFeatureRegistry, group: String = "flagd") {
        state.withLock { state in
            state.registry = registry
            state.group = group
        }
        registry.attach(self)
        registry.notifyRemoteChange(keys: Set(registerUnknown(in: registry, group: group)))
    }

    /// The member that stands for a flag: a ``FlagdFeature`` when every variant is a boolean, else a setting
    /// bound to the flag — text (one of the variants' values), an integer (every variant a whole number), a
    /// number, or JSON — whose default is the default variant's value.
    /// - Parameter definition: the flag.
    /// - Returns: the member, keyed by the flag's key.
    public func member(for definition: FlagdFlagDefinition) -> AnyFeature {
        let key = definition.key
        let values = definition.variants.keys.sorted().compactMap { definition.variants[$0] }
        let initial = definition.defaultVariant.flatMap { definition.variants[$0] } ?? values.first
        let description = "flagd flag \(JSONText.quoted(key))"
        if !values.isEmpty, values.allSatisfy({ if case .bool = $0 { true } else { false } }) {
            let flag: Bool = if case .bool(let value)? = initial { value } else { false }
            return FlagdFeature(
                key: key, flagKey: key, default: flag, label: key, description: description, source: self)
        }
        let strings = values.compactMap { if case .string(let text) = $0 { text } else { nil } }
        if !values.isEmpty, strings.count == values.count, case .string(let text)? = initial {
            return Setting<String>(
                default: text, choices: strings, key: key, label: key, description: description, remote: binding(key))
        }
        let numbers = values.compactMap { if case .number(let number) = $0 { number } else { nil } }
        if !values.isEmpty, numbers.count == values.count, case .number(let number)? = initial {
            if numbers.allSatisfy({ $0 == $0.rounded() && abs($0) < 9.2e18 }) {
                return Setting<Int>(
                    default: Int(number), key: key, label: key, description: description, remote: binding(key))
            }
            return Setting<Double>(
                default: number, key: key, label: key, description: description, remote: binding(key))
        }
        return Setting<JSONSettingValue>(
            default: initial ?? .null, key: key, label: key, description: description, remote: binding(key))
    }

    /// The flag a registry member follows in this source: a ``FlagdFeature``'s flag, or the flag a setting is bound
    /// to; `nil` for other members.
    func boundFlag(of member: AnyFeature) -> String? {
        if let flag = member as? FlagdFeature { return flag.source === self ? flag.flagKey : nil }
        guard let setting = member as? any RemoteBindableSetting, let binding = setting.remoteBinding,
            binding.source === self
        else { return nil }
        return binding.key
    }

    /// Registers a member for every flag nothing in the registry stands for; returns their keys.
    private func registerUnknown(in registry: AnyFeatureRegistry, group: String) -> [String] {
        let bound = Set(registry.allFeatures.compactMap(boundFlag(of:)))
        let definitions = self.definitions
        var members: [AnyFeature] = []
        for key in definitions.keys where !bound.contains(key) && registry.feature(forKey: key) == nil {
            guard let definition = definitions.definition(of: key) else { continue }
            members.append(member(for: definition))
        }
        var registered: [String] = []
        var failures: [String] = []
        for member in members {
            do {
                try registry.register(member, in: group)
                registered.append(member.key)
            } catch {
                failures.append("flag \(JSONText.quoted(member.key)) cannot be registered: \(error)")
            }
        }
        if !failures.isEmpty { state.withLock { $0.failure = failures.joined(separator: "; ") } }
        return registered
    }

    // MARK: Evaluation

    /// Fetches the definitions once and applies them when they changed.
    private func fetch(_ http: FlagdHTTPFetch) async {
        let etag = state.withLock { $0.etag }
        switch await http.fetch(etag: etag, bucketing: definitions.bucketing) {
        case .failure(let message):
            state.withLock { $0.failure = message }
        case .notModified:
            state.withLock { $0.failure = nil }
        case .definitions(let definitions, let etag):
            apply { state in
                state.definitions = definitions
                state.etag = etag
                state.neverFetched = false
            }
        }
    }

    /// Changes the state, evaluates every flag again and tells the registry which members changed.
    private func apply(_ change: (inout State) -> Void) {
        let (changed, registry, group) = state.withLock { state in
            let before = state.evaluations
            change(&state)
            Self.evaluateAll(&state)
            let keys = Set(before.keys).union(state.evaluations.keys).filter { before[$0] != state.evaluations[$0] }
            return (keys, state.registry, state.group)
        }
        settingValueGeneration.advance()
        guard let registry else { return }
        let registered = registerUnknown(in: registry, group: group)
        let members = registry.allFeatures.compactMap { member -> String? in
            guard let flag = boundFlag(of: member), changed.contains(flag) else { return nil }
            return member.key
        }
        registry.notifyRemoteChange(keys: Set(members).union(registered))
    }

    private static func evaluateAll(_ state: inout State) {
        var evaluations: [String: FlagdEvaluation] = [:]
        for key in state.definitions.keys {
            evaluations[key] = state.definitions.evaluate(key, context: state.context)
        }
        state.evaluations = evaluations
        state.loadedAt = Date()
        state.failure = nil
    }

    private static func load(_ url: URL, bucketing: FlagdBucketing) throws(FlagdDefinitionsError)
        -> FlagdDefinitions
    {
        let limit = 64 << 20
        let data: Data?
        do throws(BoundedFileReader.Failure) {
            data = try BoundedFileReader.read(url.path, limit: limit)
        } catch {
            throw FlagdDefinitionsError("\(url.path): cannot read the file: \(error.reason(limit: limit))")
        }
        guard let data else { throw FlagdDefinitionsError("\(url.path): no such file") }
        return try FlagdDefinitions(json: data, source: url.path, bucketing: bucketing)
    }
}
