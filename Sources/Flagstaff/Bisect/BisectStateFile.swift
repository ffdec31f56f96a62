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
        var root: [String: JSONValue] = [:]
        var entries: [(key: String, value: OverrideValue?)]?
        do throws(ReadFailure) {
            try JSONReader.withText(data) { reader throws(ReadFailure) -> Void in
                guard reader.byte == UInt8(ascii: "{") else {
                    _ = try reader.readJSONValue()
                    throw ReadFailure(message: "expected an object")
                }
                try reader.open()
                var state = JSONReader.ObjectState()
                while let token = try reader.nextFieldName(&state) {
                    let name = token.string
                    guard root[name] == nil && (name != "candidates" || entries == nil) else {
                        throw JSONReader.duplicateMember(name)
                    }
                    do throws(ReadFailure) {
                        if name == "candidates" && reader.byte == UInt8(ascii: "{") {
                            entries = try reader.readBisectCandidates()
                        } else {
                            root[name] = try reader.readJSONValue()
                        }
                    } catch {
                        throw error.inside(.field(name))
                    }
                }
            }
        } catch {
            if error.offset == nil && error.path.isEmpty && error.kind == .invalid {
                throw fail("$: \(error.message)")
            }
            throw fail(
                "not JSON (\(TextSanitizer.sanitize(StoreDocument.detail(error)))); expected the object 'flagstaff bisect start' writes"
            )
        }
        guard root["version"] == .number(Double(version)) else {
            throw fail("$.version: expected \(version)")
        }
        guard case .string(let startedText)? = root["started"], let started = JournalTime.date(Array(startedText.utf8))
        else {
            throw fail("$.started: expected a UTC time like 2026-11-23T19:00:41.123Z")
        }
        var pattern: String?
        switch root["match"] {
        case nil, .null?: pattern = nil
        case .string(let text)?: pattern = text
        default: throw fail("$.match: expected a key pattern (a string) or null")
        }
        guard let entries, !entries.isEmpty else {
            throw fail("$.candidates: expected an object of one or more overrides (key: value)")
        }
        var candidates: [String: OverrideValue] = [:]
        for (key, value) in entries {
            guard let value else {
                throw fail(
                    "$.candidates[\(JSONText.quoted(key, alsoEscaping: TextSanitizer.isUnsafe))]: expected a value, not null"
                )
            }
            candidates[key] = value
        }
        var expiries: [String: OverrideExpiry] = [:]
        if let value = root["expiry"] {
            guard case .object(let entries) = value else {
                throw fail(#"$.expiry: expected an object like {"key": {"at": "2026-12-01T10:00:00.000Z"}}"#)
            }
            for (key, entry) in entries {
                let path = "$.expiry[\(JSONText.quoted(key, alsoEscaping: TextSanitizer.isUnsafe))]"
                guard candidates[key] != nil else { throw fail("\(path): not a candidate") }
                func time(_ field: String) -> Date? {
                    guard case .string(let text)? = entry[field] else { return nil }
                    return JournalTime.date(Array(text.utf8))
                }
                guard let at = time("at"), let set = time("set") else {
                    throw fail(
                        #"\#(path): expected {"at": time, "set": time}, UTC times like 2026-12-01T10:00:00.000Z"#)
                }
                expiries[key] = OverrideExpiry(expiresAt: at, setAt: set)
            }
        }
        guard case .array(let answerList)? = root["answers"] else {
            throw fail(#"$.answers: expected an array of "good" and "bad""#)
        }
        var answers: [BisectAnswer] = []
        for (index, item) in answerList.enumerated() {
            guard case .string(let word) = item, let answer = BisectAnswer(rawValue: word) else {
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

extension JSONReader {
    /// The `candidates` object of a bisect state file: key → value (`nil` for `null`, which the caller refuses).
    fileprivate mutating func readBisectCandidates() throws(ReadFailure) -> [(key: String, value: OverrideValue?)] {
        try open()
        var entries: [(key: String, value: OverrideValue?)] = []
        var keys: Set<String> = []
        var state = ObjectState()
        while let token = try nextFieldName(&state) {
            let key = token.string
            guard keys.insert(key).inserted else { throw Self.duplicateMember(key) }
            do throws(ReadFailure) {
                entries.append((key, try readNull() ? nil : try readOverrideValue()))
            } catch {
                throw error.inside(.field(key))
            }
        }
        return entries
    }
}
