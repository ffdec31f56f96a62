import ArgumentParser
import Flagstaff
import FlagstaffFlagd
import Foundation

/// `flagstaff flagd eval`: evaluate flags of flagd definitions files for one context.
///
/// Prints, for each flag asked for, its value, variant, reason and metadata (or its error code and message), as
/// text or as the JSON object of flagd's OFREP answer. Exit status 1 when a flag is missing or fails (it is still
/// printed), or a file cannot be read or holds bad definitions (the message names the file and the JSON path); 2 for
/// bad arguments.
struct FlagdEvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate flagd flags from definitions files for one context.",
        discussion: """
            Give a flag key, or --all for every flag (sorted by key). --flags may be repeated: a flag in a later \
            file replaces the one with the same key in an earlier file, as flagd merges its sources. Without \
            --context the context is empty ({}); a string "targetingKey" in it is the targeting key. With --json, \
            prints {"key","value","variant","reason","errorCode","errorMessage","metadata"} for one key, an array of \
            them with --all. A flag the definitions lack, or an evaluation error, is printed with its errorCode and \
            makes the exit status 1.
            """)

    @Option(
        name: .customLong("flags"),
        help: ArgumentHelp("A flagd definitions file (repeatable; later files win).", valueName: "file"))
    var files: [String] = []

    @Option(
        help: ArgumentHelp(
            #"The evaluation context: a JSON object ('{"targetingKey":"user-1","email":"a@b.c"}') or @FILE."#,
            valueName: "json|@file"))
    var context: String?

    @Option(help: ArgumentHelp("How fractional buckets: v2 (flagd today, the default) or v3.", valueName: "v2|v3"))
    var bucketing: String = "v2"

    @Flag(help: "Evaluate every flag of the definitions.")
    var all = false

    @Flag(help: "Print flagd's OFREP answer object (an array with --all) instead of text.")
    var json = false

    @Argument(help: ArgumentHelp("The flag to evaluate.", valueName: "key"))
    var key: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one definitions file with --flags FILE") }
        if all == (key != nil) { throw ValidationError("give a flag key or --all (not both)") }
        if bucketing != "v2" && bucketing != "v3" {
            throw ValidationError("--bucketing: expected v2 or v3, found \"\(bucketing)\"")
        }
    }

    func run() throws {
        var documents: [(source: String, json: Data)] = []
        for file in files {
            do {
                documents.append((file, try Data(contentsOf: URL(fileURLWithPath: file))))
            } catch {
                throw CLIFailure.runtime("--flags: cannot read \(file): \(Self.describe(error))")
            }
        }
        let definitions: FlagdDefinitions
        do {
            definitions = try FlagdDefinitions(
                documents: documents, bucketing: bucketing == "v3" ? .version3 : .version2)
        } catch {
            throw CLIFailure.runtime(error.description)
        }
        let attributes = try Self.readContext(context)
        let keys = all ? definitions.keys : [key ?? ""]
        let evaluations = keys.map { definitions.evaluate($0, context: attributes) }
        StandardStreams.write(
            json ? FlagdEvalOutput.json(evaluations, array: all) : FlagdEvalOutput.text(evaluations))
        if evaluations.contains(where: { $0.errorCode != nil }) { throw ExitCode(ExitStatus.runtimeError.rawValue) }
    }

    /// The context from `--context` (or what `name` names): inline JSON or `@FILE`; it must be an object.
    static func readContext(_ argument: String?, named name: String = "--context") throws -> [String: JSONSettingValue]
    {
        guard let argument else { return [:] }
        let data: Data
        let origin: String
        if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            origin = "\(name) \(path)"
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CLIFailure.runtime("\(name): cannot read \(path): \(describe(error))")
            }
        } else {
            origin = name
            data = Data(argument.utf8)
        }
        let value: JSONSettingValue
        do {
            value = try JSONSettingValue.read(data)
        } catch {
            let detail = error.detail ?? "a member is written twice"
            throw CLIFailure(
                "\(origin): not JSON: \(detail)", status: argument.hasPrefix("@") ? .runtimeError : .usage)
        }
        guard case .object(let members) = value else {
            throw CLIFailure(
                "\(origin): expected a JSON object, found \(value.summary)",
                status: argument.hasPrefix("@") ? .runtimeError : .usage)
        }
        return members
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? CocoaError {
            if error.code == .fileReadNoSuchFile { return "no such file" }
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
                underlying.domain == NSPOSIXErrorDomain
            {
                return String(cString: strerror(Int32(underlying.code)))
            }
            return error.localizedDescription
        }
        return "\(error)"
    }
}
