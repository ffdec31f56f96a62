import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff set KEY VALUE`: forces a flag or a typed setting, or puts it back to its default.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Force a flag or setting to a value, or put it back to its default.",
        discussion: """
            VALUE is read by the member's type: on or off for flags; any text for strings; a number; an enum's \
            case name; JSON text, or @FILE (@- for standard input) holding it, for JSON settings. 'default' \
            removes the override. A value that is not valid (wrong type, out of range, not a choice) is refused \
            with status 2 and nothing is written. Writes the override store atomically; a running app or \
            console watching the store sees the change.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Argument(
        help: ArgumentHelp("The flag's or setting's full key, e.g. list.infiniteScroll.", valueName: "key"),
        completion: KeyCompletion.kind)
    var key: String

    @Argument(
        help: ArgumentHelp(
            "on, off or default for flags; text, a number, a case name or JSON (or @FILE) for settings.",
            valueName: "value"),
        completion: KeyCompletion.valueKind)
    var value: String

    @Flag(
        help: """
            Read VALUE as JSON text of the member's value (a quoted string, a number, an object), e.g. to store \
            the word default in a text setting: --json '"default"'.
            """)
    var json = false

    func run() throws {
        let loaded = try RegistryLoader.load(source)
        let feature = try KeyLookup.feature(key, in: loaded.registry)
        let newValue = try ValueArgument.parse(value, for: feature, asJSON: json)
        let before = feature.currentValue
        do {
            try loaded.registry.setOverrideValues([feature.key: newValue])
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        let resolution = feature.explanation
        StandardStreams.out(
            "\(TerminalText.safe(feature.key)): \(ValueText.override(feature.overrideValue, of: feature)) (\(ValueText.shown(resolution.value, of: feature)) \(SourceText.byPhrase(resolution.source)))"
        )
        if feature.requiresRestart && before != feature.currentValue {
            StandardStreams.note("\(TerminalText.safe(feature.key)) requires a restart of the app to take effect")
        }
    }
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
        if asJSON {
            do {
                let value = try OverrideValue(json: text)
                try feature.validate(value)
                return value
            } catch {
                throw refusal(text, for: feature, reason: error.reason)
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
            throw refusal(origin.map { "@" + $0 } ?? text, for: feature, reason: error.reason)
        }
    }

    /// `invalid value '500' for 'maxItems' (VALUE): must be 1…100` and what the member accepts.
    static func refusal(_ text: String, for feature: AnyFeature, reason: String) -> CLIFailure {
        CLIFailure.usage(
            "invalid value '\(TerminalText.safe(text))' for '\(TerminalText.safe(feature.key))' (VALUE): \(reason)\n"
                + "expected \(ValueText.expectation(of: feature)), or 'default' to remove the override")
    }
}
