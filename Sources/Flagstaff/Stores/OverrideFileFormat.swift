import Foundation

/// The override file format, `{"version":1,"overrides":{"list.infiniteScroll":"on","blueText":"off"}}`: the one
/// parser and writer for the store file (`FileOverrideStore`), the documents `flagstaff import` reads and
/// `flagstaff export` writes, and profiles.
///
/// Every error names the file, the JSON path (with the key, for a bad entry) and what was expected.
package enum OverrideFileFormat {
    /// The only version of the format.
    package static let version = 1

    /// What a reader accepts beyond `{"version":1,"overrides":{"key":"on"|"off"}}`.
    package struct Rules: Sendable, Equatable {
        /// Whether `"default"` is accepted as an entry's value (meaning "remove this override").
        package var acceptsDefault: Bool
        /// Whether top-level fields other than `version` and `overrides` are errors (else they are ignored).
        package var rejectsUnknownFields: Bool

        /// The store file: `on` and `off` only; unknown top-level fields are ignored.
        package static let store = Rules(acceptsDefault: false, rejectsUnknownFields: false)
        /// A document a person hands over (`flagstaff import`): `default` allowed, nothing unknown accepted.
        package static let document = Rules(acceptsDefault: true, rejectsUnknownFields: true)
    }

    /// Parses a document. Entries are kept whatever their key: whether a key belongs to a registry is the
    /// caller's question.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the file's name for messages (a path, or e.g. `standard input`).
    ///   - rules: what is accepted beyond the store format.
    /// - Returns: the overrides by key; `.featureDefault` only for `"default"` entries under ``Rules/document``.
    /// - Throws: ``OverrideFileError`` naming the file, the JSON path and what was expected.
    package static func decode(_ data: Data, file: String, rules: Rules) throws(OverrideFileError) -> [String:
        OverrideState]
    {
        func fail(_ path: String?, key: String? = nil, _ problem: String) -> OverrideFileError {
            OverrideFileError(file: file, path: path, key: key, problem: problem)
        }
        let shape = #"{"version":1,"overrides":{"key":"on"}}"#
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw fail(nil, "the file is empty; expected a JSON object like \(shape)")
        }
        let root: Any
        do {
            root = try JSONValue.read(data)
        } catch {
            let detail = error.detail.map { " (\(TextSanitizer.sanitize($0)))" } ?? ""
            throw fail(nil, "not valid JSON\(detail); expected a JSON object like \(shape)")
        }
        guard let object = root as? [String: Any] else {
            throw fail("$", "expected a JSON object like \(shape), found \(JSONValue(root).summary)")
        }
        if rules.rejectsUnknownFields {
            for field in object.keys.sorted() where field != "version" && field != "overrides" {
                throw fail(path(field: field), #"unknown field (expected "version" and "overrides")"#)
            }
        }
        guard let versionValue = object["version"].map(JSONValue.init) else {
            throw fail("$", #"missing "version" (expected \#(version))"#)
        }
        guard versionValue == .number(Double(version)) else {
            throw fail("$.version", #"unsupported "version" \#(versionValue.summary) (expected \#(version))"#)
        }
        guard let overridesValue = object["overrides"] else {
            throw fail("$", #"missing "overrides" (expected an object of key → \#(words(rules)))"#)
        }
        guard let entries = overridesValue as? [String: Any] else {
            throw fail(
                "$.overrides", "expected an object of key → \(words(rules)), found \(JSONValue(overridesValue).summary)"
            )
        }
        var result: [String: OverrideState] = [:]
        result.reserveCapacity(entries.count)
        var firstBadKey: String?  // the first in key order, so the message does not depend on hashing
        for (key, value) in entries {
            switch value as? String {
            case "on": result[key] = .enabled
            case "off": result[key] = .disabled
            case "default" where rules.acceptsDefault: result[key] = .featureDefault
            default: if firstBadKey.map({ key < $0 }) ?? true { firstBadKey = key }
            }
        }
        if let key = firstBadKey, let value = entries[key] {
            throw fail(
                "$.overrides[\(quoted(key))]", key: key, "expected \(words(rules)), found \(JSONValue(value).summary)")
        }
        return result
    }

    /// Parses a store file (``Rules/store``), reporting a bad one as the store's error.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: the store file's path.
    /// - Returns: the overrides by key (`on` and `off` only).
    /// - Throws: `OverrideStoreError.corrupt` with the file, the JSON path and what was expected.
    static func decode(_ data: Data, path: String) throws(OverrideStoreError) -> [String: OverrideState] {
        do {
            return try decode(data, file: path, rules: .store)
        } catch {
            throw .corrupt(path: path, reason: error.reason)
        }
    }

    /// Encodes overrides, keys sorted, one per line, so diffs of the file stay readable. `.featureDefault`
    /// entries are left out (no override).
    /// - Parameter overrides: the overrides by key.
    /// - Returns: the file's bytes.
    package static func encode(_ overrides: [String: OverrideState]) -> Data {
        var text = "{\n  \"version\": \(version),\n  \"overrides\": {"
        let entries = overrides.filter { $0.value != .featureDefault }.sorted { $0.key < $1.key }
        for (index, entry) in entries.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += "    \(JSONText.quoted(entry.key)): \"\(entry.value == .enabled ? "on" : "off")\""
        }
        text += entries.isEmpty ? "}\n}\n" : "\n  }\n}\n"
        return Data(text.utf8)
    }

    /// `"on" or "off"`, or `"on", "off" or "default"`.
    private static func words(_ rules: Rules) -> String {
        rules.acceptsDefault ? #""on", "off" or "default""# : #""on" or "off""#
    }

    /// A key quoted for a JSON path, safe to print.
    private static func quoted(_ key: String) -> String {
        JSONText.quoted(key, alsoEscaping: TextSanitizer.isUnsafe)
    }

    /// `$.name` for identifier-like names, else `$["odd name"]`.
    private static func path(field: String) -> String {
        let identifier =
            field.unicodeScalars.first.map { !("0"..."9").contains($0) } == true
            && field.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
            }
        return identifier ? "$.\(field)" : "$[\(quoted(field))]"
    }
}
