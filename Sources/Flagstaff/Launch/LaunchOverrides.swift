import Foundation

/// Values an app is started with, for UI tests and CI: they win over every source but test overrides, are never
/// written anywhere, and cannot be changed while the app runs.
///
/// Given by the environment variable `FLAGSTAFF_OVERRIDES` — either the export format
/// (`{"version":1,"overrides":{"blueText":"on","maxItems":50}}`) or `key=value,key=value` (values as
/// `flagstaff set` takes them: `on`/`off`, text, numbers, case names, JSON) — and by launch arguments
/// `-flagstaff KEY=VALUE` (repeatable; they win over the variable for the same key). From XCUITest:
/// `app.launchEnvironment["FLAGSTAFF_OVERRIDES"] = "blueText=on,maxItems=50"` or
/// `app.launchArguments += ["-flagstaff", "theme=dark"]`.
///
/// Registries read the process's launch overrides (``process``) unless `RegistryOptions.launchOverrides` says
/// otherwise. An invalid entry (unparsable variable, a value of the wrong type, a key no member has, with the nearest
/// key) is reported once per process on standard error and in `registry.launchOverrideProblems`, and ignored — never
/// a crash.
public struct LaunchOverrides: Sendable, Hashable {
    /// One launch value: text to parse by the member's type, or a JSON value from the export format.
    public enum Value: Sendable, Hashable {
        /// Text from `key=value` or `-flagstaff KEY=VALUE`, parsed like `flagstaff set` parses values.
        case text(String)
        /// A JSON value from the export format.
        case json(OverrideValue)
    }

    /// The values by key.
    public var values: [String: Value]
    /// Where the values came from, for explanations (`FLAGSTAFF_OVERRIDES`, `-flagstaff arguments`).
    public var origin: String
    /// Problems reading the variable or the arguments (not about particular members).
    public var problems: [String]
    /// Where each key's value came from, when the values came from more than one place (an argument wins over the
    /// variable); a key not listed came from ``origin``.
    var keyOrigins: [String: String] = [:]

    /// Where `key`'s value came from (`FLAGSTAFF_OVERRIDES`, `-flagstaff arguments`), for messages about that key.
    func origin(of key: String) -> String { keyOrigins[key] ?? origin }

    /// Creates launch overrides.
    public init(values: [String: Value] = [:], origin: String = "launch", problems: [String] = []) {
        self.values = values
        self.origin = origin
        self.problems = problems
    }

    /// No launch overrides.
    public static let none = LaunchOverrides()

    /// This process's launch overrides, read once from `FLAGSTAFF_OVERRIDES` and the `-flagstaff` arguments.
    public static let process = LaunchOverrides(
        environment: ProcessInfo.processInfo.environment, arguments: Array(CommandLine.arguments.dropFirst()))

    /// Why the process's `FLAGSTAFF_OVERRIDES` is refused when `text` is what Foundation made of it with bytes that
    /// are not UTF-8 replaced by U+FFFD; `nil` otherwise (a value with no U+FFFD is never looked at again).
    static func bytesProblem(of text: String) -> String? {
        guard text.unicodeScalars.contains("\u{FFFD}"), let bytes = Platform.environmentBytes(environmentVariable),
            String(decoding: bytes, as: UTF8.self) == text
        else { return nil }
        return utf8Problem(bytes)
    }

    /// Why `bytes` (a variable's value) are not UTF-8, naming the first bad byte and its offset; `nil` when they are.
    static func utf8Problem(_ bytes: [UInt8]) -> String? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error:
                let byte = String(bytes[min(offset, bytes.count - 1)], radix: 16, uppercase: true)
                return
                    "\(environmentVariable): not UTF-8 (byte 0x\(byte.count == 1 ? "0" + byte : byte) at offset \(offset)); none of its values were applied"
            }
        }
    }

    /// The name of the environment variable.
    public static let environmentVariable = "FLAGSTAFF_OVERRIDES"

    /// Reads launch overrides from an environment and launch arguments.
    /// - Parameters:
    ///   - environment: the environment (`FLAGSTAFF_OVERRIDES` is read).
    ///   - arguments: the launch arguments, without the program name (`-flagstaff KEY=VALUE` pairs are read;
    ///     everything else is left alone).
    public init(environment: [String: String], arguments: [String]) {
        var values: [String: Value] = [:]
        var problems: [String] = []
        var origins: [String] = []
        var keyOrigins: [String: String] = [:]
        if let text = environment[Self.environmentVariable], let refusal = Self.bytesProblem(of: text) {
            // Foundation turned bytes that are not UTF-8 into U+FFFD: refused whole, not applied with them.
            origins.append(Self.environmentVariable)
            problems.append(refusal)
        } else if let text = environment[Self.environmentVariable].map(Self.droppingByteOrderMark),
            !text.trimmingCharacters(in: .whitespaces).isEmpty
        {
            origins.append(Self.environmentVariable)
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix("{") {
                do {
                    let contents = try OverrideFileFormat.decodeContents(
                        Data(trimmed.utf8), file: Self.environmentVariable, rules: .document)
                    for (key, value) in contents.overrides {
                        values[key] = .json(value)
                        keyOrigins[key] = Self.environmentVariable
                    }
                    for key in contents.removals {
                        problems.append(
                            "\(Self.environmentVariable): \(Self.quoted(key)) has no value to force (\"default\" and null are not values)"
                        )
                    }
                } catch {
                    problems.append("\(error)")
                }
            } else {
                for pair in Self.splitPairs(trimmed) {
                    switch Self.pair(pair) {
                    case .success(let (key, value)):
                        values[key] = .text(value)
                        keyOrigins[key] = Self.environmentVariable
                    case .failure(let problem):
                        problems.append("\(Self.environmentVariable): \(problem.reason)")
                    }
                }
            }
        }
        var index = 0
        var sawArgument = false
        while index < arguments.count {
            defer { index += 1 }
            guard arguments[index] == "-flagstaff" else { continue }
            sawArgument = true
            guard index + 1 < arguments.count else {
                problems.append("-flagstaff: expected KEY=VALUE after it, found nothing")
                break
            }
            index += 1
            switch Self.pair(arguments[index]) {
            case .success(let (key, value)):
                values[key] = .text(value)
                keyOrigins[key] = "-flagstaff arguments"
            case .failure(let problem): problems.append("-flagstaff: \(problem.reason)")
            }
        }
        if sawArgument { origins.append("-flagstaff arguments") }
        self.init(
            values: values, origin: origins.isEmpty ? "launch" : origins.joined(separator: " and "), problems: problems)
        self.keyOrigins = origins.count > 1 ? keyOrigins : [:]
    }

    /// `text` without a leading byte-order mark (a value read from a file an editor saved with one): JSON readers
    /// skip it, and before a key it would make the key unknown.
    static func droppingByteOrderMark(_ text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// Splits `a=1,b=2` at commas that start a new `key=` pair, so a JSON value or text with commas stays whole
    /// (`config={"a":1,"b":2},blueText=on`, `welcome=Hello, world,blueText=on`): a piece without `=` belongs to the
    /// value before it.
    static func splitPairs(_ text: String) -> [String] {
        var pairs: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        var escaped = false
        for character in text {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else {
                switch character {
                case "\"": inString = true
                case "{", "[": depth += 1
                case "}", "]": depth = max(0, depth - 1)
                case "," where depth == 0:
                    pairs.append(current)
                    current = ""
                    continue
                default: break
                }
            }
            current.append(character)
        }
        pairs.append(current)
        var merged: [String] = []
        for piece in pairs {
            if !piece.contains("="), let last = merged.popLast() {
                merged.append(last + "," + piece)
            } else {
                merged.append(piece)
            }
        }
        return merged.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func pair(_ text: String) -> Result<(String, String), SettingValueError> {
        guard let equals = text.firstIndex(of: "=") else {
            return .failure(SettingValueError("expected KEY=VALUE, found \(quoted(text))"))
        }
        let key = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty else { return .failure(SettingValueError("expected KEY=VALUE, found \(quoted(text))")) }
        return .success((key, String(text[text.index(after: equals)...])))
    }

    static func quoted(_ text: String) -> String {
        JSONText.quoted(TextLimit.cut(text), alsoEscaping: TextSanitizer.isUnsafe)
    }

    /// The value for `member`, parsed and validated by its type.
    /// - Returns: the value, or why it was refused.
    func value(for member: AnyFeature) -> Result<OverrideValue, SettingValueError>? {
        guard let value = values[member.key] else { return nil }
        do {
            switch value {
            case .text(let text): return .success(try member.parse(text))
            case .json(let json):
                try member.validate(json)
                return .success(json)
            }
        } catch {
            return .failure(error)
        }
    }
}

/// Cuts text shown in messages to a readable length, saying how long it was.
enum TextLimit {
    static func cut(_ text: String, limit: Int = 200) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.count) characters)"
    }
}

/// Says what the library cannot report any other way (launch-override problems, a manifest it could not announce)
/// on standard error, `flagstaff: <line>`, each line once per process.
enum ProcessNotes {
    private static let said = AnnotatedMutex<Set<String>>([])

    static func sayOnce(_ lines: [String]) {
        let fresh = said.withLock { seen in lines.filter { seen.insert($0).inserted } }
        for line in fresh {
            FileHandle.standardError.write(Data("flagstaff: \(TextSanitizer.sanitize(line))\n".utf8))
        }
    }
}
