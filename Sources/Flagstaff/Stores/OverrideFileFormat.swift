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
        /// Whether top-level fields other than `version` and `overrides` are errors (else they are kept, see
        /// ``Contents/otherMembers``).
        package var rejectsUnknownFields: Bool

        /// The store file: `on` and `off` only; unknown top-level fields are kept.
        package static let store = Rules(acceptsDefault: false, rejectsUnknownFields: false)
        /// A document a person hands over (`flagstaff import`): `default` allowed, nothing unknown accepted.
        package static let document = Rules(acceptsDefault: true, rejectsUnknownFields: true)
    }

    /// A parsed override file: its overrides and the top-level members it has besides `version` and `overrides`.
    package struct Contents: Sendable, Equatable {
        /// The overrides by key.
        package var overrides: [String: OverrideState]
        /// Top-level members other than `version` and `overrides`, in the file's order, each with its value's
        /// JSON text as it was in the file: a writer puts them back unchanged.
        package var otherMembers: [Member]

        /// A top-level member kept as text.
        package struct Member: Sendable, Equatable {
            /// The member's name.
            package var name: String
            /// The member's value, as JSON text.
            package var json: String
        }

        /// Creates contents.
        package init(overrides: [String: OverrideState], otherMembers: [Member] = []) {
            self.overrides = overrides
            self.otherMembers = otherMembers
        }
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
        try decodeContents(data, file: file, rules: rules).overrides
    }

    /// Parses a document, keeping its other top-level members (see ``Contents``).
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the file's name for messages (a path, or e.g. `standard input`).
    ///   - rules: what is accepted beyond the store format.
    /// - Returns: the overrides and the other members.
    /// - Throws: ``OverrideFileError`` naming the file, the JSON path and what was expected; a member name
    ///   repeated in an object is an error at its path.
    package static func decodeContents(_ data: Data, file: String, rules: Rules) throws(OverrideFileError)
        -> Contents
    {
        func fail(_ path: String?, key: String? = nil, _ problem: String) -> OverrideFileError {
            OverrideFileError(file: file, path: path, key: key, problem: problem)
        }
        let shape = #"{"version":1,"overrides":{"key":"on"}}"#
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw fail(nil, "the file is empty; expected a JSON object like \(shape)")
        }
        let document: JSONValue.Document
        do {
            document = try JSONValue.readDocument(data)
        } catch {
            if let duplicate = error.duplicate, case .member(let name)? = duplicate.last {
                let key: String? =
                    duplicate.count == 2 && duplicate.first == .member("overrides") ? name : nil
                throw fail(
                    path(duplicate), key: key,
                    "the name \(quoted(name)) appears more than once in this object (each name may appear once)")
            }
            let detail = error.detail.map { " (\(TextSanitizer.sanitize($0)))" } ?? ""
            throw fail(nil, "not valid JSON\(detail); expected a JSON object like \(shape)")
        }
        let root = document.value
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
        let others = document.members.filter { $0.name != "version" && $0.name != "overrides" }.map { member in
            Contents.Member(name: member.name, json: String(decoding: data[member.value], as: UTF8.self))
        }
        return Contents(overrides: result, otherMembers: others)
    }

    /// Parses a store file (``Rules/store``), reporting a bad one as the store's error.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: the store file's path.
    /// - Returns: the overrides by key (`on` and `off` only).
    /// - Throws: `OverrideStoreError.corrupt` with the file, the JSON path and what was expected.
    static func decode(_ data: Data, path: String) throws(OverrideStoreError) -> [String: OverrideState] {
        try decodeStore(data, path: path).overrides
    }

    /// Parses a store file (``Rules/store``) with its other top-level members, reporting a bad one as the
    /// store's error.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: the store file's path.
    /// - Returns: the overrides and the other members.
    /// - Throws: `OverrideStoreError.corrupt` with the file, the JSON path and what was expected.
    static func decodeStore(_ data: Data, path: String) throws(OverrideStoreError) -> Contents {
        do {
            return try decodeContents(data, file: path, rules: .store)
        } catch {
            throw .corrupt(path: path, reason: error.reason)
        }
    }

    /// Above this size (in bytes, of the readable layout) a file is written compactly, on one line: about
    /// 30,000 overrides. Files that large are made by programs, and the compact layout is about a third smaller.
    package static let compactThreshold = 1 << 20

    /// Encodes overrides, keys sorted, one per line, so diffs of the file stay readable; a file whose readable
    /// layout would pass ``compactThreshold`` bytes is written on one line instead. `.featureDefault` entries
    /// are left out (no override). Other top-level members follow `overrides`, as they were read.
    /// - Parameters:
    ///   - overrides: the overrides by key.
    ///   - otherMembers: top-level members to keep (see ``Contents``).
    /// - Returns: the file's bytes.
    package static func encode(_ overrides: [String: OverrideState], otherMembers: [Contents.Member] = []) -> Data {
        let entries = overrides.filter { $0.value != .featureDefault }.sorted { $0.key < $1.key }.map {
            (JSONText.quoted($0.key), $0.value == .enabled ? #""on""# : #""off""#)
        }
        let readableSize = entries.reduce(0) { $0 + $1.0.utf8.count + 13 }
        if readableSize > compactThreshold {
            var text = #"{"version":\#(version),"overrides":{"#
            text.reserveCapacity(readableSize)
            for (index, entry) in entries.enumerated() {
                if index > 0 { text += "," }
                text += entry.0 + ":" + entry.1
            }
            text += "}"
            for member in otherMembers { text += "," + JSONText.quoted(member.name) + ":" + member.json }
            return Data((text + "}\n").utf8)
        }
        var text = "{\n  \"version\": \(version),\n  \"overrides\": {"
        for (index, entry) in entries.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += "    \(entry.0): \(entry.1)"
        }
        text += entries.isEmpty ? "}" : "\n  }"
        for member in otherMembers { text += ",\n  \(JSONText.quoted(member.name)): \(member.json)" }
        return Data((text + "\n}\n").utf8)
    }

    /// `"on" or "off"`, or `"on", "off" or "default"`.
    private static func words(_ rules: Rules) -> String {
        rules.acceptsDefault ? #""on", "off" or "default""# : #""on" or "off""#
    }

    /// A key quoted for a JSON path, safe to print.
    private static func quoted(_ key: String) -> String {
        JSONText.quoted(key, alsoEscaping: TextSanitizer.isUnsafe)
    }

    /// `$.name["key"][0]`: the first member as ``path(field:)`` writes it, then brackets.
    private static func path(_ components: [JSONPathComponent]) -> String {
        var text = "$"
        for (index, component) in components.enumerated() {
            switch component {
            case .member(let name) where index == 0: text = path(field: name)
            case .member(let name): text += "[\(quoted(name))]"
            case .index(let position): text += "[\(position)]"
            }
        }
        return text
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
