import Flagstaff
import FlagstaffFlagd
import Foundation
import Testing

/// ``FlagdDefinitions`` against the reference evaluator (openfeature-flagd-core 1.0.0 for bucketing version 2,
/// 2.0.0 for version 3) over generated definitions and contexts: value, variant, reason and error code must be the
/// same for every query.
///
/// `swift test` compares a few thousand queries per version from a fixed seed. `scripts/flagd-differential` runs
/// the long comparison (`FLAGSTAFF_FLAGD_DIFFERENTIAL_CASES=100000` or more per version).
struct DifferentialTests {
    /// Queries per version: a few thousand, or what `FLAGSTAFF_FLAGD_DIFFERENTIAL_CASES` asks for.
    static let cases: Int = {
        if let text = ProcessInfo.processInfo.environment["FLAGSTAFF_FLAGD_DIFFERENTIAL_CASES"], let count = Int(text),
            count > 0
        {
            return count
        }
        return 3000
    }()

    static let shownDifferences =
        Int(ProcessInfo.processInfo.environment["FLAGSTAFF_FLAGD_DIFFERENCES_SHOWN"] ?? "") ?? 10
    static let flagsPerDocument = 30
    static let contextsPerDocument = 25

    @Test(
        "agrees with openfeature-flagd-core 1.0.0 (bucketing version 2)",
        .enabled(if: FlagdReference.version2Reason == nil, Comment(rawValue: FlagdReference.version2Reason ?? "")))
    func version2() throws {
        try compare(.version2, seed: 0x5EED_0002)
    }

    @Test(
        "agrees with openfeature-flagd-core 2.0.0 (bucketing version 3)",
        .enabled(if: FlagdReference.version3Reason == nil, Comment(rawValue: FlagdReference.version3Reason ?? "")))
    func version3() throws {
        try compare(.version3, seed: 0x5EED_0003)
    }

    /// One query: which document, flag, type, default and context.
    struct Query {
        let document: Int
        let line: JSONSettingValue
        let flag: String
        let type: String
        let defaultValue: JSONSettingValue
        let context: [String: JSONSettingValue]
    }

    /// A flag's JSON in a document, for messages.
    static func flagJSON(_ document: String, _ key: String) -> String {
        let value = try? JSONSettingValue.read(Data(document.utf8))
        let flag = value?["flags"]?[key]?.overrideValue.json ?? "none"
        return value?["$evaluators"].map { flag + "\n  $evaluators \($0.overrideValue.json)" } ?? flag
    }

    func compare(_ bucketing: FlagdBucketing, seed: UInt64) throws {
        var generator = DefinitionGenerator(seed: seed)
        var lines: [JSONSettingValue] = []
        var documents: [FlagdDefinitions?] = []
        var documentJSON: [String] = []
        var queries: [Query] = []
        // For each line sent: the document it loads, or the query it asks.
        enum Line {
            case definitions(Int)
            case query(Int)
        }
        var asked: [Line] = []
        while queries.count < Self.cases {
            let (flags, json) = generator.document(flagCount: Self.flagsPerDocument)
            let text = json.overrideValue.json
            documentJSON.append(text)
            documents.append(try? FlagdDefinitions(json: Data(text.utf8), bucketing: bucketing))
            lines.append(.object(["definitions": json]))
            asked.append(.definitions(documents.count - 1))
            for _ in 0..<Self.contextsPerDocument {
                let context = generator.context()
                for _ in 0..<4 {
                    let flag =
                        generator.chance(3)
                        ? (key: "no-such-flag", kind: DefinitionGenerator.Kind.string)
                        : generator.pick(flags)
                    let type = generator.askedType(for: flag.kind)
                    let defaultValue = generator.defaultValue(type)
                    let query = Query(
                        document: documents.count - 1,
                        line: .object([
                            "flag": .string(flag.key), "type": .string(type), "default": defaultValue,
                            "context": .object(context),
                        ]), flag: flag.key, type: type, defaultValue: defaultValue, context: context)
                    asked.append(.query(queries.count))
                    queries.append(query)
                    lines.append(query.line)
                }
            }
        }
        let answers = try FlagdReference.answers(lines, bucketing: bucketing)
        var differences: [String] = []
        var refused = 0
        for (index, answer) in answers.enumerated() {
            guard case .query(let number) = asked[index] else {
                // Both must load the document, or both refuse it.
                guard case .definitions(let document) = asked[index] else { continue }
                let loaded = documents[document] != nil
                if (answer["ok"] != nil) != loaded {
                    differences.append(
                        "document \(document): reference \(answer.overrideValue.json), flagstaff loaded: \(loaded)")
                }
                if !loaded { refused += 1 }
                continue
            }
            let query = queries[number]
            guard let definitions = documents[query.document] else { continue }
            let expected = FlagdReference.answer(answer)
            let actual = FlagdReference.Answer(
                definitions.evaluate(
                    query.flag, context: query.context, type: FlagdValueType(referenceName: query.type),
                    defaultValue: query.type == "any" ? nil : query.defaultValue))
            if expected != actual {
                if let dump = ProcessInfo.processInfo.environment["FLAGSTAFF_FLAGD_DIFFERENCES_DUMP"] {
                    let line =
                        "{\"document\": \(documentJSON[query.document]), \"query\": \(query.line.overrideValue.json)}\n"
                    if let handle = FileHandle(forWritingAtPath: dump) {
                        handle.seekToEndOfFile()
                        handle.write(Data(line.utf8))
                        try? handle.close()
                    } else {
                        _ = FileManager.default.createFile(atPath: dump, contents: Data(line.utf8))
                    }
                }
                differences.append(
                    "document \(query.document) flag \(query.flag) as \(query.type) context "
                        + "\(JSONSettingValue.object(query.context).overrideValue.json):\n  reference \(expected)\n"
                        + "  flagstaff \(actual)\n  flag \(Self.flagJSON(documentJSON[query.document], query.flag))")
            }
        }
        print(
            "flagd differential (\(bucketing)): \(queries.count) queries over \(documents.count) documents, "
                + "\(differences.count) differences")
        #expect(refused == 0, "\(refused) generated documents were refused")
        if !differences.isEmpty {
            let list = differences.prefix(Self.shownDifferences).joined(separator: "\n")
            Issue.record(
                Comment(
                    rawValue: "\(differences.count) of \(queries.count) queries differ from the reference; "
                        + "first ones:\n\(list)"))
        }
    }
}
