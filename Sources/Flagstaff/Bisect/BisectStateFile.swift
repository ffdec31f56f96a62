import Foundation

/// The bisect state file beside a store, `<store>.bisect.json`:
///
/// ```json
/// {
///   "version": 1,
///   "started": "2026-11-23T20:41:07.512Z",
///   "match": "checkout.*",
///   "candidates": {"checkout.v2": "on", "checkout.express": "off"},
///   "expiry": {"checkout.v2": {"at": "2026-11-24T08:00:00.000Z", "set": "2026-11-23T20:00:00.000Z"}},
///   "answers": ["bad"]
/// }
/// ```
///
/// `match` is `null` when every override was a candidate; `expiry` lists the candidates that had an expiry
/// (the store's own form), and may be left out. What remains and what is under test follow from
/// the candidates and the answers (``BisectSession``).
package enum BisectStateFile {
    /// The format version written and accepted.
    package static let version = 1
    /// The largest state file read (the store's own limit: its candidates came from the store).
    static let sizeLimit = FileOverrideStore.defaultSizeLimit

    /// The file's bytes for a session, keys sorted.
    package static func encode(_ session: BisectSession) -> Data {
        var text = "{\n  \"version\": \(version),\n  \"started\": \"\(JournalTime.text(session.startedAt))\",\n"
        text += "  \"match\": \(session.pattern.map { JSONText.quoted($0) } ?? "null"),\n  \"candidates\": {"
        for (index, key) in session.candidates.keys.sorted().enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += "    \(JSONText.quoted(key)): \(session.candidates[key]?.json ?? "null")"
        }
        text += "\n  },\n"
        if !session.expiries.isEmpty {
            let fields = session.expiries.keys.sorted().compactMap { key in
                session.expiries[key].map {
                    "    \(JSONText.quoted(key)): {\"at\": \"\(JournalTime.text($0.expiresAt))\", \"set\": \"\(JournalTime.text($0.setAt))\"}"
                }
            }
            text += "  \"expiry\": {\n" + fields.joined(separator: ",\n") + "\n  },\n"
        }
        text += "  \"answers\": ["
        text += session.answers.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        return Data((text + "]\n}\n").utf8)
    }

    /// Reads a state file.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: the file, for messages.
    /// - Throws: ``BisectError`` (corrupt state) naming the file, the JSON path and what was expected.
    package static func decode(_ data: Data, path: String) throws(BisectError) -> BisectSession {
        func fail(_ reason: String) -> BisectError { BisectError(code: .corruptState(path: path, reason: reason)) }
        let object: Any
        do {
            object = try JSONValue.read(data)
        } catch {
            let detail = error.detail.map { " (\(TextSanitizer.sanitize($0)))" } ?? ""
            throw fail("not JSON\(detail); expected the object 'flagstaff bisect start' writes")
        }
        guard let root = object as? [String: Any] else { throw fail("$: expected an object") }
        guard let number = root["version"] as? NSNumber, JSONValue(number) == .number(Double(version)) else {
            throw fail("$.version: expected \(version)")
        }
        guard let startedText = root["started"] as? String, let started = JournalTime.date(Array(startedText.utf8))
        else {
            throw fail("$.started: expected a UTC time like 2026-11-23T19:00:41.123Z")
        }
        var pattern: String?
        switch root["match"] {
        case nil, is NSNull: pattern = nil
        case let text as String: pattern = text
        default: throw fail("$.match: expected a key pattern (a string) or null")
        }
        guard let entries = root["candidates"] as? [String: Any], !entries.isEmpty else {
            throw fail("$.candidates: expected an object of one or more overrides (key: value)")
        }
        var candidates: [String: OverrideValue] = [:]
        for (key, value) in entries {
            guard !(value is NSNull) else {
                throw fail(
                    "$.candidates[\(JSONText.quoted(key, alsoEscaping: TextSanitizer.isUnsafe))]: expected a value, not null"
                )
            }
            candidates[key] = OverrideValue(jsonObject: value)
        }
        var expiries: [String: OverrideExpiry] = [:]
        if let value = root["expiry"] {
            guard let entries = value as? [String: Any] else {
                throw fail(#"$.expiry: expected an object like {"key": {"at": "2026-12-01T10:00:00.000Z"}}"#)
            }
            for (key, entry) in entries {
                let path = "$.expiry[\(JSONText.quoted(key, alsoEscaping: TextSanitizer.isUnsafe))]"
                guard candidates[key] != nil else { throw fail("\(path): not a candidate") }
                func time(_ field: String) -> Date? {
                    ((entry as? [String: Any])?[field] as? String).flatMap { JournalTime.date(Array($0.utf8)) }
                }
                guard let at = time("at"), let set = time("set") else {
                    throw fail(
                        #"\#(path): expected {"at": time, "set": time}, UTC times like 2026-12-01T10:00:00.000Z"#)
                }
                expiries[key] = OverrideExpiry(expiresAt: at, setAt: set)
            }
        }
        guard let answerList = root["answers"] as? [Any] else {
            throw fail(#"$.answers: expected an array of "good" and "bad""#)
        }
        var answers: [BisectAnswer] = []
        for (index, item) in answerList.enumerated() {
            guard let word = item as? String, let answer = BisectAnswer(rawValue: word) else {
                throw fail(#"$.answers[\#(index)]: expected "good" or "bad""#)
            }
            answers.append(answer)
        }
        do {
            return try BisectSession(
                startedAt: started, pattern: pattern, candidates: candidates, expiries: expiries, answers: answers)
        } catch {
            throw fail("$.answers: \(error.description)")
        }
    }
}
