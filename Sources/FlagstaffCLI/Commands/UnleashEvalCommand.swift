import ArgumentParser
import FlagstaffUnleash
import Foundation

/// `flagstaff unleash eval`: evaluate flags of a saved Unleash state for one or many contexts.
///
/// Reads a `/api/client/features` body (or a delta document, `{"events": [...]}`) and prints, for every context
/// and every flag, whether the flag is on and which variant it gives. Contexts use the client specification's
/// shape (`userId`, `sessionId`, `remoteAddress`, `currentTime`, `environment`, `appName`, `properties`).
/// Definitions the engine can never match (unknown operators, invalid regexes, missing segments) are printed
/// as notes on stderr. Exit status 1 when a file cannot be read or holds bad data (the message names the file
/// and line), 2 for bad arguments.
struct UnleashEvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate Unleash flags from a saved state for one or many contexts.",
        discussion: """
            Without FLAG arguments every flag of the state is evaluated, in state order. Without --context or \
            --contexts the context is empty ({}). With --json, prints one line per (context, flag) pair: \
            {"context":{…},"flag":"name","enabled":true,"variant":{"name":"…","enabled":true,\
            "feature_enabled":true,"payload":{"type":"string","value":"…"}}} (payload only when there is one), \
            contexts in input order and flags in the order given. --explain adds why (a trailing "# reason" in \
            text, a "reason" key in JSON).
            """)

    @Option(help: ArgumentHelp("A /api/client/features body (or a delta document) saved as JSON.", valueName: "file"))
    var state: String

    @Option(help: ArgumentHelp(#"One context as a JSON object, e.g. '{"userId":"42"}'."#, valueName: "json"))
    var context: String?

    @Option(
        help: ArgumentHelp(
            "A file with one context JSON object per line (JSON Lines); blank lines are skipped.",
            valueName: "file.jsonl"))
    var contexts: String?

    @Flag(help: "Print one JSON object per (context, flag) pair instead of text.")
    var json = false

    @Flag(help: "Say why each flag is on or off (which strategy matched, which dependency failed).")
    var explain = false

    @Argument(help: ArgumentHelp("Flags to evaluate (default: every flag in the state).", valueName: "flag"))
    var flags: [String] = []

    func validate() throws {
        if context != nil, contexts != nil {
            throw ValidationError("give either --context or --contexts, not both")
        }
    }

    func run() throws {
        let engine = UnleashEngine()
        try Self.loadState(state, into: engine)
        // Definitions that can never match are not errors, but they are often the answer to "why is it off".
        for warning in engine.warnings { StandardStreams.note("\(state): \(warning)") }
        let selected = flags.isEmpty ? engine.featureNames : flags
        let known = Set(engine.featureNames)
        for flag in selected where !known.contains(flag) {
            StandardStreams.note("flag \"\(flag)\" is not in \(state); it evaluates as off with the disabled variant")
        }
        var output = UnleashEvalOutput(json: json, flags: selected, multipleContexts: contexts != nil, explain: explain)
        if let contexts {
            // Every line is decoded before anything is printed: a bad line fails the run with no partial output.
            for (source, context) in try Self.contextLines(in: contexts) {
                output.write(context: context, source: source, engine: engine)
            }
        } else {
            let source = context?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "{}"
            let parsed: UnleashContext
            do {
                parsed = try UnleashContext.decode(json: Data(source.utf8))
            } catch {
                throw CLIFailure.usage("--context: \(Self.describe(error))")
            }
            output.write(context: parsed, source: source, engine: engine)
        }
        output.finish()
    }

    /// Reads and installs the state file, turning every failure into a message that names the file.
    private static func loadState(_ path: String, into engine: UnleashEngine) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIFailure.runtime("cannot read the state file \(path): \(Self.describe(error))")
        }
        do {
            try engine.takeState(data)
        } catch {
            throw CLIFailure.runtime("\(path): \(Self.describe(error))")
        }
    }

    /// Decodes every non-blank line of a JSON Lines file, in file order, with its text as given.
    private static func contextLines(in path: String) throws -> [(source: String, context: UnleashContext)] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIFailure.runtime("cannot read the contexts file \(path): \(Self.describe(error))")
        }
        var result: [(source: String, context: UnleashContext)] = []
        var lineNumber = 0
        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = String(decoding: rawLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            do {
                result.append((line, try UnleashContext.decode(json: Data(line.utf8))))
            } catch {
                throw CLIFailure.runtime("\(path):\(lineNumber): bad context: \(Self.describe(error))")
            }
        }
        return result
    }

    /// A one-line reason for a decoding or file error.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case let error as UnleashStateError: return error.description
        case let error as UnleashContextError: return error.description
        case let error as CocoaError:
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
                let posix = POSIXErrorCode(rawValue: Int32(underlying.code)), underlying.domain == NSPOSIXErrorDomain
            {
                return String(cString: strerror(posix.rawValue))
            }
            return error.code == .fileReadNoSuchFile ? "no such file" : error.localizedDescription
        case let error as DecodingError:
            return "\(error)"
        default:
            return "\(error)"
        }
    }
}
