import Foundation

/// The override file format, `{"version":1,"overrides":{"list.infiniteScroll":"on","blueText":"off","maxItems":50}}`:
/// the one parser and writer for the store file (`FileOverrideStore`), the documents `flagstaff import` reads and
/// `flagstaff export` writes, and profiles.
///
/// Flags are stored as `"on"`/`"off"`, typed settings as plain JSON values (`"#000000"`, `50`, `{"a":1}`). The file
/// does not say which key is which: any JSON value is kept, and the registry checks each against the type declared
/// under its key.
///
/// Every error names the file, the JSON path (with the key, for a bad entry) and what was expected.
package enum OverrideFileFormat {
    /// The only version of the format.
    package static let version = 1

    /// What a reader accepts beyond `{"version":1,"overrides":{"key": value}}`.
    package struct Rules: Sendable, Equatable {
        /// Whether `"default"` and `null` are read as "remove this override" (see ``Contents/removals``).
        package var acceptsDefault: Bool
        /// Whether top-level fields other than `version` and `overrides` are errors (else they are kept, see
        /// ``Contents/otherMembers``).
        package var rejectsUnknownFields: Bool

        /// Whether the top-level `expiry` member is read (see ``Contents/expiries``); else it is an other member.
        package var readsExpiry = false

        /// The store file: every entry is a value; expiry times are read; unknown top-level fields are kept.
        package static let store = Rules(acceptsDefault: false, rejectsUnknownFields: false, readsExpiry: true)
        /// A document a person hands over (`flagstaff import`): `default` allowed, nothing unknown accepted.
        package static let document = Rules(acceptsDefault: true, rejectsUnknownFields: true)
    }

    /// A parsed override file: its overrides and the top-level members it has besides `version` and `overrides`.
    package struct Contents: Sendable, Equatable {
        /// The overrides by key.
        package var overrides: [String: OverrideValue]
        /// Keys whose entry is `"default"` or `null` under ``Rules/document``: overrides to remove.
        package var removals: Set<String> = []
        /// The expiry of overrides that have one (store files only: the top-level `expiry` member,
        /// `{"key": {"at": "2026-12-01T10:00:00.000Z", "set": "2026-11-30T10:00:00.000Z"}}`).
        package var expiries: [String: OverrideExpiry] = [:]
        /// Top-level members other than `version`, `overrides` (and `expiry` in a store), in the file's order, each with its value's
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
        package init(
            overrides: [String: OverrideValue], removals: Set<String> = [], expiries: [String: OverrideExpiry] = [:],
            otherMembers: [Member] = []
        ) {
            self.overrides = overrides
            self.removals = removals
            self.expiries = expiries
            self.otherMembers = otherMembers
        }
    }

    /// Parses a document. Entries are kept whatever their key: whether a key belongs to a registry is the
    /// caller's question.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the file's name for messages (a path, or e.g. `standard input`).
    ///   - rules: what is accepted beyond the store format.
    /// - Returns: the overrides by key (not the removals of a document: see ``decodeContents(_:file:rules:)``).
    /// - Throws: ``OverrideFileError`` naming the file, the JSON path and what was expected.
    package static func decode(_ data: Data, file: String, rules: Rules) throws(OverrideFileError) -> [String:
        OverrideValue]
    {
        try decodeContents(data, file: file, rules: rules).overrides
    }

    /// Parses a document, keeping its other top-level members (see ``Contents``).
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the file's name for messages (a path, or e.g. `standard input`).
    ///   - rules: what is accepted beyond the store format.
    ///   - repair: the unreadable expiry entries that are read for removal instead of refusing the file (noted in
    ///     it), or `nil`.
    /// - Returns: the overrides and the other members.
    /// - Throws: ``OverrideFileError`` naming the file, the JSON path and what was expected; a member name
    ///   repeated in an object is an error at its path.
    package static func decodeContents(
        _ data: Data, file: String, rules: Rules, repair: StoreRepair? = nil
    ) throws(OverrideFileError) -> Contents {
        func fail(_ path: String?, key: String? = nil, _ problem: String) -> OverrideFileError {
            OverrideFileError(file: file, path: path, key: key, problem: problem)
        }
        let shape = #"{"version":1,"overrides":{"key":"on"}}"#
        if JSONTextEncoding.isBlank(data) {
            throw fail(nil, "the file is empty; expected a JSON object like \(shape)")
        }
        let document: StoreDocument
        do throws(ReadFailure) {
            document = try JSONReader.withText(data) { reader throws(ReadFailure) in
                try reader.readOverrideDocument(rules)
            }
        } catch {
            if error.isDuplicate, case .member(let name)? = error.components.last {
                let duplicate = error.components
                let key: String? = duplicate.count == 2 && duplicate.first == .member("overrides") ? name : nil
                throw fail(
                    path(duplicate), key: key,
                    "the name \(quoted(name)) appears more than once in this object (each name may appear once)")
            }
            let detail = error.kind == .encoding ? error.message : StoreDocument.detail(error)
            throw fail(nil, "not valid JSON (\(TextSanitizer.sanitize(detail))); expected a JSON object like \(shape)")
        }
        if let root = document.root {
            throw fail("$", "expected a JSON object like \(shape), found \(root.summary)")
        }
        if rules.rejectsUnknownFields {
            for field in document.names.sorted() where field != "version" && field != "overrides" {
                throw fail(path(field: field), #"unknown field (expected "version" and "overrides")"#)
            }
        }
        guard let versionValue = document.version else {
            throw fail("$", #"missing "version" (expected \#(version))"#)
        }
        guard versionValue == .number(Double(version)) else {
            throw fail("$.version", #"unsupported "version" \#(versionValue.summary) (expected \#(version))"#)
        }
        if let other = document.otherOverrides {
            throw fail("$.overrides", "expected an object of key → \(words(rules)), found \(other.summary)")
        }
        guard let overrides = document.overrides else {
            throw fail("$", #"missing "overrides" (expected an object of key → \#(words(rules)))"#)
        }
        var expiries: [String: OverrideExpiry] = [:]
        if let expiryValue = document.expiry {
            expiries = try readExpiries(expiryValue, file: file, repair: repair)
        }
        return Contents(
            overrides: overrides, removals: document.removals, expiries: expiries, otherMembers: document.otherMembers)
    }

    /// Reads the store's `expiry` member: key → `{"at": time, "set": time}` (`set` may be left out), times as
    /// `2026-12-01T10:00:00Z` with optional milliseconds, in UTC.
    private static func readExpiries(_ value: JSONValue, file: String, repair: StoreRepair?) throws(OverrideFileError)
        -> [String:
        OverrideExpiry]
    {
        let shape = #"{"key": {"at": "2026-12-01T10:00:00.000Z", "set": "2026-11-30T10:00:00.000Z"}}"#
        guard case .object(let entries) = value else {
            throw OverrideFileError(
                file: file, path: "$.expiry", key: nil,
                problem: "expected an object like \(shape), found \(value.summary)")
        }
        var result: [String: OverrideExpiry] = [:]
        var unreadable: [OverrideFileError] = []
        for (key, entry) in entries {
            do {
                result[key] = try readExpiry(key: key, entry, file: file)
            } catch {
                unreadable.append(error)
            }
        }
        // One unreadable entry makes the file unreadable, unless a repair that removes it is under way.
        if let first = unreadable.min(by: { ($0.key ?? "") < ($1.key ?? "") }) {
            guard let repair, unreadable.allSatisfy({ repair.covers($0.key ?? "") }) else {
                var error = first
                error.problem += "; resetting that key (or `flagstaff doctor --fix`) removes the entry"
                throw error
            }
            for error in unreadable { repair.note(key: error.key ?? "", problem: error.reason) }
        }
        return result
    }

    /// Reads one entry of the store's `expiry` member, `{"at": time, "set": time}`.
    private static func readExpiry(key: String, _ entry: JSONValue, file: String) throws(OverrideFileError)
        -> OverrideExpiry
    {
        let entryPath = "$.expiry[\(quoted(key))]"
        guard case .object(let fields) = entry else {
            throw OverrideFileError(
                file: file, path: entryPath, key: key,
                problem: #"expected an object like {"at": "2026-12-01T10:00:00.000Z"}, found \#(entry.summary)"#)
        }
        func time(_ field: String, required: Bool) throws(OverrideFileError) -> Date? {
            guard let raw = fields[field] else {
                if required {
                    throw OverrideFileError(
                        file: file, path: entryPath, key: key,
                        problem: #"missing "\#(field)" (expected a UTC time like "2026-12-01T10:00:00.000Z")"#)
                }
                return nil
            }
            guard case .string(let text) = raw, let date = JournalTime.date(Array(text.utf8)) else {
                throw OverrideFileError(
                    file: file, path: "\(entryPath).\(field)", key: key,
                    problem: #"expected a UTC time like "2026-12-01T10:00:00.000Z", found \#(raw.summary)"#)
            }
            return date
        }
        guard let expiresAt = try time("at", required: true) else {
            throw OverrideFileError(file: file, path: entryPath, key: key, problem: #"missing "at""#)
        }
        return OverrideExpiry(expiresAt: expiresAt, setAt: try time("set", required: false) ?? expiresAt)
    }

    /// Parses a store file (``Rules/store``), reporting a bad one as the store's error.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: the store file's path.
    /// - Returns: the overrides by key.
    /// - Throws: `OverrideStoreError.corrupt` with the file, the JSON path and what was expected.
    static func decode(_ data: Data, path: String) throws(OverrideStoreError) -> [String: OverrideValue] {
        try decodeStore(data, path: path).overrides
    }

    /// Parses a store file (``Rules/store``) with its other top-level members, reporting a bad one as the
    /// store's error.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: the store file's path.
    /// - Returns: the overrides and the other members.
    /// - Throws: `OverrideStoreError.corrupt` with the file, the JSON path and what was expected.
    static func decodeStore(_ data: Data, path: String, repair: StoreRepair? = nil) throws(OverrideStoreError)
        -> Contents
    {
        do {
            return try decodeContents(data, file: path, rules: .store, repair: repair)
        } catch {
            throw .corrupt(path: path, reason: error.reason)
        }
    }

    /// Above this size (in bytes, of the readable layout) a file is written compactly, on one line: about
    /// 30,000 overrides. Files that large are made by programs, and the compact layout is about a third smaller.
    package static let compactThreshold = 1 << 20

    /// Encodes overrides, keys sorted, one per line, so diffs of the file stay readable; a file whose readable
    /// layout would pass ``compactThreshold`` bytes is written on one line instead. Other top-level members follow
    /// `overrides`, as they were read.
    /// - Parameters:
    ///   - overrides: the overrides by key.
    ///   - otherMembers: top-level members to keep (see ``Contents``).
    /// - Returns: the file's bytes.
    package static func encode(
        _ overrides: [String: OverrideValue], expiries: [String: OverrideExpiry] = [:],
        otherMembers: [Contents.Member] = []
    ) -> Data {
        encode(
            overrides, sortedKeys: ByteOrderSort.sorted(Array(overrides.keys)), expiries: expiries,
            otherMembers: otherMembers)
    }

    /// Encodes overrides as ``encode(_:expiries:otherMembers:)`` does, given their keys already in order.
    /// - Parameters:
    ///   - overrides: the overrides by key.
    ///   - sortedKeys: the keys of `overrides`, sorted (``ByteOrderSort``).
    ///   - expiries: the expiry of overrides that have one.
    ///   - otherMembers: top-level members to keep (see ``Contents``).
    /// - Returns: the file's bytes.
    package static func encode(
        _ overrides: [String: OverrideValue], sortedKeys: [String], expiries: [String: OverrideExpiry] = [:],
        otherMembers: [Contents.Member] = []
    ) -> Data {
        encode(
            SortedOverrides(keys: sortedKeys, values: sortedKeys.map { overrides[$0] ?? .off }), expiries: expiries,
            otherMembers: otherMembers)
    }

    /// Encodes overrides already in the byte order of their keys (no value is looked up).
    /// - Parameters:
    ///   - sorted: the overrides, keys in byte order (``ByteOrderSort``).
    ///   - expiries: the expiry of overrides that have one (others are ignored).
    ///   - otherMembers: top-level members to keep (see ``Contents``).
    /// - Returns: the file's bytes.
    static func encode(
        _ sorted: SortedOverrides, expiries: [String: OverrideExpiry] = [:], otherMembers: [Contents.Member] = []
    ) -> Data {
        let sortedKeys = sorted.keys
        var otherMembers = otherMembers
        // An expiry is kept for an override the file has.
        let kept = expiries.filter { sorted.contains($0.key) }.sorted { $0.key < $1.key }
        if !kept.isEmpty {
            let fields = kept.map { key, expiry in
                JSONText.quoted(key) + #":{"at":""# + JournalTime.text(expiry.expiresAt) + #"","set":""#
                    + JournalTime.text(expiry.setAt) + #""}"#
            }
            otherMembers.insert(Contents.Member(name: "expiry", json: "{" + fields.joined(separator: ",") + "}"), at: 0)
        }
        let values = sorted.values
        var readableSize = 0
        for (key, value) in zip(sortedKeys, values) { readableSize += key.utf8.count + value.json.utf8.count + 10 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            readableSize + otherMembers.reduce(64) { $0 + $1.name.utf8.count + $1.json.utf8.count + 8 })
        // The readable size counts a key's quotes but not its escapes: a file of keys that need escaping may pass
        // the threshold by those few bytes, which decides nothing but the layout.
        let compact = readableSize > compactThreshold
        bytes.append(
            contentsOf: (compact
                ? #"{"version":\#(version),"overrides":{"# : "{\n  \"version\": \(version),\n  \"overrides\": {").utf8)
        for index in sortedKeys.indices {
            if compact {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
            } else {
                bytes.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
            }
            JSONText.appendQuoted(sortedKeys[index], to: &bytes)
            if compact {
                bytes.append(UInt8(ascii: ":"))
            } else {
                bytes.append(contentsOf: ": ".utf8)
            }
            let json = values[index].json
            if json.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
                bytes.append(contentsOf: json.utf8)
            }
        }
        bytes.append(contentsOf: (compact || sortedKeys.isEmpty ? "}" : "\n  }").utf8)
        for member in otherMembers {
            bytes.append(contentsOf: (compact ? "," : ",\n  ").utf8)
            bytes.append(contentsOf: JSONText.quoted(member.name).utf8)
            bytes.append(contentsOf: (compact ? ":" : ": ").utf8)
            bytes.append(contentsOf: member.json.utf8)
        }
        bytes.append(contentsOf: (compact ? "}\n" : "\n}\n").utf8)
        return Data(bytes)
    }

    /// What an entry may be.
    private static func words(_ rules: Rules) -> String {
        rules.acceptsDefault
            ? #"a value ("on", "off", a setting's value) or "default""# : #"a value ("on", "off" or a setting's value)"#
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
