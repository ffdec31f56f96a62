import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff set KEY VALUE [KEY VALUE …]` and `flagstaff set --match PATTERN VALUE`: forces flags and typed
/// settings, or puts them back to their defaults, in one write.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Force flags or settings to values, or put them back to their defaults, in one write.",
        discussion: """
            VALUE is read by the member's type: on or off for flags; any text for strings; a number; an enum's \
            case name; JSON text, or @FILE (@- for standard input) holding it, for JSON settings. 'default' \
            removes the override. Several KEY VALUE pairs are checked first and written together (one write, one \
            undo step); a value that is not valid (wrong type, out of range, not a choice) is refused with status \
            2 and nothing is written. --match PATTERN VALUE sets every flag and setting whose key matches the \
            glob (* any run of characters, ? one character) and that VALUE fits; members it does not fit are \
            skipped and listed, and a text setting never takes a flag word (on, off, true…) this way. A running \
            app or console watching the store sees the change.
            """)

    @OptionGroup var source: RegistrySourceOptions

    // `.allUnrecognized`: a negative number (`set maxItems -1`) is a VALUE, not an unknown short option;
    // `validate()` refuses the other dash-prefixed words as unknown options.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "KEY VALUE pairs (a full key such as list.infiniteScroll, then on, off or default for flags; text, a number, a case name or JSON (or @FILE) for settings); with --match, VALUE alone.",
            valueName: "key-value"),
        completion: .custom { words, _, prefix in SetCompletion.complete(words: words, prefix: prefix) })
    var arguments: [String] = []

    @Option(
        help: ArgumentHelp(
            "Set every flag and setting whose key matches this glob (checkout.*) to VALUE.", valueName: "pattern"))
    var match: String?

    @Flag(
        help: """
            Read VALUE as JSON text of the member's value (a quoted string, a number, an object), e.g. to store \
            the word default in a text setting: --json '"default"'.
            """)
    var json = false

    @Option(help: "Output: text (default) or json (the changes as a JSON object).")
    var format: OutputFormat = .text

    // `.unconditional` (as `--until`): `--for -1m` is a value, refused with what a duration is.
    @Option(
        name: .customLong("for"), parsing: .unconditional,
        help: ArgumentHelp(
            "Let the overrides set expire after this long: 90s, 30m, 2h, 3d, 1w (or combined, 1d12h).",
            valueName: "duration"))
    var duration: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Let the overrides set expire at this time (ISO 8601, e.g. 2026-12-01T10:00:00Z).", valueName: "time"))
    var until: String?

    mutating func validate() throws {
        // Words after `--` are KEY VALUE words whatever they start with (`set welcomeMessage -- -hi`).
        let terminator = arguments.firstIndex(of: "--")
        let beforeTerminator = arguments[..<(terminator ?? arguments.endIndex)]
        if let option = beforeTerminator.first(where: { $0.hasPrefix("-") && !Self.isNegativeNumber($0) }) {
            throw ValidationError("unknown option '\(TerminalText.safe(option))'")
        }
        if let terminator { arguments.remove(at: terminator) }
        if duration != nil && until != nil { throw ValidationError("give either --for or --until, not both") }
        if let duration, DurationText.seconds(duration) == nil { throw ExpiryArgument.badDuration(duration) }
        if let until {
            do {
                _ = try ISO8601Time.parse(until)
            } catch {
                throw ExpiryArgument.badTime(until, reason: error.reason)
            }
        }
        if match != nil {
            guard arguments.count == 1 else {
                throw ValidationError(
                    "with --match, give VALUE alone (got \(arguments.count) arguments): flagstaff set --match PATTERN VALUE"
                )
            }
            return
        }
        guard !arguments.isEmpty else { throw ValidationError("give KEY VALUE, or --match PATTERN VALUE") }
        guard arguments.count.isMultiple(of: 2) else {
            let key = TerminalText.safe(arguments[arguments.count - 1])
            throw ValidationError(
                arguments.count == 1
                    ? "missing VALUE for '\(key)': give KEY VALUE"
                    : "the last KEY '\(key)' has no VALUE: give KEY VALUE pairs")
        }
    }

    /// Whether a dash-prefixed word is a negative number (`-1`, `-2.5`, `-.5`, `-1e3`): a VALUE.
    static func isNegativeNumber(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && Double(word) != nil
    }

    func run() throws {
        let loaded = try RegistryLoader.load(source)
        let registry = loaded.registry
        let plan =
            try match.map { try BulkSetPlan.matching($0, value: arguments[0], in: registry, asJSON: json) }
            ?? BulkSetPlan.pairs(arguments, in: registry, asJSON: json)
        let expiresAt = try ExpiryArgument.deadline(duration: duration, until: until, now: registry.now)
        if expiresAt != nil, plan.changes.values.allSatisfy({ $0 == .remove }) {
            throw CLIFailure.usage(
                "--\(duration != nil ? "for" : "until"): every VALUE is 'default', which removes the override; an expiry applies to values set"
            )
        }
        let restartValues = plan.members.filter(\.requiresRestart).map { ($0, $0.currentValue) }
        let result: WriteReceipt
        do {
            // --match skips members whose declaration already gives them VALUE: no override that changes nothing.
            result = try registry.writeOverrideValues(
                plan.changes, expiresAt: expiresAt, policy: match == nil ? .writeEveryValue : .skipDefaults)
            JournalNote.report(result.journalError)
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        // A change of expiry alone is a change too (the history records it).
        let written = result.changes ?? []  // always given through the registry
        let changedKeys = Set(written.map(\.key))
        let changed = plan.members.filter { changedKeys.contains($0.key) }
        switch format {
        case .json:
            let byKey = Dictionary(written.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
            StandardStreams.out(
                BulkSetPlan.json(
                    changes: changed.compactMap { byKey[$0.key] }, matched: plan.members.count + plan.skipped.count,
                    unchanged: plan.members.count - changed.count, skipped: plan.skipped))
        case .text:
            // Pairs print every member; --match prints what changed.
            for feature in match == nil ? plan.members : changed {
                StandardStreams.out(BulkSetPlan.line(for: feature, now: registry.now))
            }
            if let match { plan.noteMatchSummary(match, changed: changed.count) }
        }
        plan.noteSkipped()
        for (feature, value) in restartValues where feature.currentValue != value {
            StandardStreams.note("\(TerminalText.safe(feature.key)) requires a restart of the app to take effect")
        }
    }
}

/// How `set` and `reset` print their results.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// Reads the VALUE of `flagstaff set` by the type of the flag or setting it is for.
enum ValueArgument {
    /// The words that remove an override: `default` for every member, and for flags also the other words
    /// `OverrideState(word:)` reads as the default (`reset`, `none`, any case).
    static func isRemoval(_ text: String, for feature: AnyFeature) -> Bool {
        if text == "default" { return true }
        return feature is AnyFlag && OverrideState(word: text) == .featureDefault
    }

    /// The value to store, or `nil` to remove the override.
    /// - Parameters:
    ///   - text: VALUE as given.
    ///   - feature: the flag or setting.
    ///   - asJSON: whether VALUE is JSON text (`--json`).
    /// - Throws: `CLIFailure.usage` naming the key, the value and what is expected (status 2);
    ///   `CLIFailure.runtime` when an `@FILE` cannot be read.
    static func parse(_ text: String, for feature: AnyFeature, asJSON: Bool) throws -> OverrideValue? {
        do {
            return try read(text, for: feature, asJSON: asJSON)
        } catch let invalid as InvalidValue {
            throw refusal(invalid.text, for: feature, reason: invalid.reason)
        }
    }

    /// A VALUE the member does not accept: the text as given (`@FILE` for a file) and why.
    struct InvalidValue: Error {
        var text: String
        var reason: String
    }

    /// ``parse(_:for:asJSON:)``, with a refused value as ``InvalidValue``.
    /// - Throws: ``InvalidValue``, or `CLIFailure` for an `@FILE` that cannot be read or is not text.
    static func read(_ text: String, for feature: AnyFeature, asJSON: Bool) throws -> OverrideValue? {
        if asJSON {
            do {
                let value = try OverrideValue(json: text)
                try feature.validate(value)
                return value
            } catch {
                throw InvalidValue(text: text, reason: error.reason)
            }
        }
        if isRemoval(text, for: feature) { return nil }
        var input = text
        var origin: String?
        if case .json = feature.settingType, text.hasPrefix("@") {
            let path = String(text.dropFirst())
            guard !path.isEmpty else {
                throw CLIFailure.usage(
                    "'@' needs a file (VALUE): give @FILE with the JSON of '\(TerminalText.safe(feature.key))', or @- for standard input"
                )
            }
            let data = try InputFile.read(path, for: "set \(feature.key)")
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw CLIFailure.usage(
                    "\(InputFile.displayName(path)) is not UTF-8 text; expected the JSON of '\(TerminalText.safe(feature.key))' (VALUE)"
                )
            }
            input = decoded
            origin = InputFile.displayName(path)
        }
        do {
            return try feature.parse(input)
        } catch {
            throw InvalidValue(text: origin.map { "@" + $0 } ?? text, reason: error.reason)
        }
    }

    /// `invalid value '500' for 'maxItems' (VALUE): must be 1…100` and what the member accepts.
    static func refusal(_ text: String, for feature: AnyFeature, reason: String) -> CLIFailure {
        CLIFailure.usage(
            "invalid value '\(TerminalText.safe(text))' for '\(TerminalText.safe(feature.key))' (VALUE): \(reason)\n"
                + "expected \(ValueText.expectation(of: feature)), or 'default' to remove the override")
    }
}

/// What `set` writes: the members, their new values, and (for `--match`) the matching members VALUE does not fit.
struct BulkSetPlan {
    /// The members set, in the order given (pairs) or in key order (`--match`).
    var members: [AnyFeature]
    /// key → what to do to its override.
    var changes: [String: OverrideEdit]
    /// Members `--match` found that VALUE does not fit, in key order, with the reason.
    var skipped: [(key: String, reason: String)] = []

    /// Reads `KEY VALUE` pairs: every key and value is checked before anything is written.
    /// - Throws: `CLIFailure.usage` naming every unknown key, a key given twice, or every invalid pair.
    static func pairs(_ arguments: [String], in registry: AnyFeatureRegistry, asJSON: Bool) throws -> BulkSetPlan {
        let pairs = stride(from: 0, to: arguments.count - 1, by: 2).map { (arguments[$0], arguments[$0 + 1]) }
        let features = try KeyLookup.features(pairs.map(\.0), in: registry)
        var seen = Set<String>()
        for (key, _) in pairs where !seen.insert(key).inserted {
            throw CLIFailure.usage("'\(TerminalText.safe(key))' is given twice (KEY); give each key once")
        }
        if !asJSON, zip(features, pairs).filter({ $0.0.settingType == .json && $0.1.1 == "@-" }).count > 1 {
            throw CLIFailure.usage("'@-' (standard input) is given as more than one VALUE; it can be read once")
        }
        var changes: [String: OverrideEdit] = [:]
        var refusals: [String] = []
        for (feature, (_, text)) in zip(features, pairs) {
            do {
                changes[feature.key] = OverrideEdit(try ValueArgument.parse(text, for: feature, asJSON: asJSON))
            } catch let failure as CLIFailure where failure.status == .usage && pairs.count > 1 {
                refusals.append(failure.message)
            }
        }
        if !refusals.isEmpty {
            throw CLIFailure.usage(refusals.joined(separator: "\n") + "\nnothing was written")
        }
        return BulkSetPlan(members: features, changes: changes)
    }

    /// The members whose keys match `pattern` and that VALUE fits. A text setting does not take a flag word
    /// (`on`, `off`, `true`, … as flags read them) given without `--json`: the pattern most likely meant flags.
    /// - Throws: `CLIFailure.runtime` (status 1) when no member matches; `CLIFailure.usage` when VALUE fits none.
    static func matching(_ pattern: String, value text: String, in registry: AnyFeatureRegistry, asJSON: Bool) throws
        -> BulkSetPlan
    {
        let matcher = KeyPattern(pattern)
        let matched = registry.allFeatures.filter { matcher.matches($0.key) }.sorted { $0.key < $1.key }
        guard !matched.isEmpty else { throw noMatch(pattern, in: registry) }
        var plan = BulkSetPlan(members: [], changes: [:])
        let flagWord = OverrideState(word: text).map { $0 != .featureDefault } ?? false
        for feature in matched {
            if !asJSON, flagWord, feature.settingType == .string {
                plan.skipped.append(
                    (
                        feature.key,
                        "a text setting does not take the flag word '\(TerminalText.safe(text))' from --match (set it by its key)"
                    ))
                continue
            }
            do {
                plan.changes[feature.key] = OverrideEdit(try ValueArgument.read(text, for: feature, asJSON: asJSON))
                plan.members.append(feature)
            } catch let invalid as ValueArgument.InvalidValue {
                plan.skipped.append((feature.key, "\(feature.settingType.name): \(invalid.reason)"))
            }
        }
        guard !plan.members.isEmpty else {
            let list = plan.skipped.prefix(10).map { "\(TerminalText.safe($0.key)) (\($0.reason))" }
            throw CLIFailure.usage(
                "VALUE '\(TerminalText.safe(text))' fits none of the \(matched.count) flag(s) and setting(s) matching '\(TerminalText.safe(pattern))': "
                    + list.joined(separator: "; ") + (plan.skipped.count > 10 ? "; …" : "") + "; nothing was written")
        }
        return plan
    }

    /// `no flag or setting matches 'checkout.*' in Demo` (status 1).
    static func noMatch(_ pattern: String, in registry: AnyFeatureRegistry) -> CLIFailure {
        CLIFailure.runtime(
            "no flag or setting matches '\(TerminalText.safe(pattern))' (--match) in \(TerminalText.safe(registry.name)); nothing was changed"
        )
    }

    /// `list.infiniteScroll: on (ON by override)`: the override and the value that results, then its expiry if it
    /// has one (`until 2026-12-01T10:00:00Z, 2h left`).
    static func line(for feature: AnyFeature, now: Date) -> String {
        let resolution = feature.explanation
        var line =
            "\(TerminalText.safe(feature.key)): \(ValueText.override(feature.overrideValue, of: feature)) (\(ValueText.shown(resolution.value, of: feature)) \(SourceText.byPhrase(resolution.source)))"
        if let expiry = feature.overrideExpiry { line += " " + ExpiryText.until(expiry, now: now) }
        return line
    }

    /// `{"changes":[{"key","from","to"}],"matched":N,"unchanged":N,"skipped":[{"key","reason"}]}`, compact, keys in
    /// order; a change with an expiry before or after adds `fromExpiresAt`/`toExpiresAt` (as `history --json`).
    static func json(
        changes: [StoreSnapshot.ValueChange], matched: Int, unchanged: Int, skipped: [(key: String, reason: String)]
    ) -> String {
        let entries = changes.map { change in
            var entry =
                #"{"key":"# + HistoryOutput.quoted(change.key) + #","from":"# + HistoryOutput.json(change.old)
                + #","to":"# + HistoryOutput.json(change.new)
            if let until = change.oldExpiresAt {
                entry += #","fromExpiresAt":"# + HistoryOutput.quoted(JournalTime.text(until))
            }
            if let until = change.newExpiresAt {
                entry += #","toExpiresAt":"# + HistoryOutput.quoted(JournalTime.text(until))
            }
            return entry + "}"
        }
        let skippedJSON = skipped.map {
            #"{"key":"# + HistoryOutput.quoted($0.key) + #","reason":"# + HistoryOutput.quoted($0.reason) + "}"
        }
        return #"{"changes":["# + entries.joined(separator: ",")
            + #"],"matched":\#(matched),"unchanged":\#(unchanged),"skipped":["#
            + skippedJSON.joined(separator: ",") + "]}"
    }

    /// Notes the skipped members on standard error, one line each.
    func noteSkipped() {
        for (key, reason) in skipped {
            StandardStreams.note("skipped \(TerminalText.safe(key)): \(reason)")
        }
    }

    /// `set 3 of 5 flag(s) and setting(s) matching 'checkout.*'` on standard error.
    func noteMatchSummary(_ pattern: String, changed: Int) {
        let total = members.count + skipped.count
        StandardStreams.note(
            "changed \(changed) of the \(total) flag(s) and setting(s) matching '\(TerminalText.safe(pattern))'"
                + (members.count > changed ? " (\(members.count - changed) already had that value)" : ""))
    }
}

/// Reads `set`'s `--for DURATION` and `--until TIME`.
enum ExpiryArgument {
    /// `--for '90': expected …` (status 2).
    static func badDuration(_ text: String) -> ValidationError {
        ValidationError(
            "--for '\(TerminalText.safe(text))': expected \(DurationText.expected)")
    }

    /// `--until 'tomorrow': expected …`, or `--until '2030-02-30T00:00:00Z': there is no 2030-02-30 …; expected …`
    /// (status 2).
    static func badTime(_ text: String, reason: String = "") -> ValidationError {
        ValidationError(
            "--until '\(TerminalText.safe(text))': \(reason.isEmpty ? "" : reason + "; ")expected an ISO 8601 time with a zone, like 2026-12-01T10:00:00Z"
        )
    }

    /// When the overrides set expire, or `nil` for permanent ones.
    /// - Throws: `CLIFailure.usage` when `--until` is not in the future, or the expiry is past the latest time a
    ///   store can hold.
    static func deadline(duration: String?, until: String?, now: Date) throws -> Date? {
        let latest = OverrideExpiry.storableRange.upperBound
        if let duration, let seconds = DurationText.seconds(duration) {
            let date = now.addingTimeInterval(TimeInterval(seconds))
            guard date <= latest else {
                throw CLIFailure.usage(
                    "--for \(TerminalText.safe(duration)): the overrides would expire at \(CommandClock.text(date)), after the latest time a store can hold (it holds times \(OverrideExpiry.storableRangeText))"
                )
            }
            return date
        }
        guard let until else { return nil }
        let date: Date
        do {
            date = try ISO8601Time.parse(until)
        } catch {
            throw CLIFailure.usage(badTime(until, reason: error.reason).message)
        }
        guard date <= latest else {
            throw CLIFailure.usage(
                "--until \(TerminalText.safe(until)) is after the latest time a store can hold (it holds times \(OverrideExpiry.storableRangeText)); give an earlier time"
            )
        }
        guard date > now else {
            throw CLIFailure.usage(
                "--until \(TerminalText.safe(until)) is not in the future (now \(CommandClock.text(now))); give a later time, or --for DURATION"
            )
        }
        return date
    }
}

/// Shell completion of `set`'s arguments: keys at KEY positions, the values of the key before at VALUE positions
/// (`on`/`off`/`default`, a choice's cases), and flag words after `--match PATTERN`.
enum SetCompletion {
    /// Options of `set` that take a value (skipped when counting arguments).
    static let takesValue: Set<String> = [
        "--manifest", "--store", "--lock-timeout", "--match", "--format", "--for", "--until",
    ]

    /// The completions for the last word of `words` (the one being typed, `prefix`).
    static func complete(words: [String], prefix: String) -> [String] {
        guard let set = words.firstIndex(of: "set") else { return [] }
        var positional: [String] = []
        var context: [String] = []
        var matching = false
        var index = words.index(after: set)
        while index < words.count - 1 {
            let word = words[index]
            if takesValue.contains(word) {
                if word == "--match" { matching = true }
                if word == "--manifest" || word == "--store", index + 1 < words.count - 1 {
                    context += [word, words[index + 1]]
                }
                index += 2
                continue
            }
            if word.hasPrefix("--match=") { matching = true }
            if !word.hasPrefix("-") { positional.append(word) }
            index += 1
        }
        if matching { return ["on", "off", "default"].filter { $0.hasPrefix(prefix) } }
        if positional.count.isMultiple(of: 2) {
            return KeyCompletion.keys(words: context, prefix: prefix)
        }
        return KeyCompletion.values(
            words: ["flagstaff", "set"] + context + [positional.last ?? "", prefix], prefix: prefix)
    }
}
