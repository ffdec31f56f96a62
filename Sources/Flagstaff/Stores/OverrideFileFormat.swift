import Foundation

/// The override file format: `{"version":1,"overrides":{"list.infiniteScroll":"on","blueText":"off"}}`.
enum OverrideFileFormat {
    static let version = 1

    /// Parses a file's bytes.
    /// - Throws: `OverrideStoreError.corrupt` naming the field and what was expected.
    static func decode(_ data: Data, path: String) throws -> [String: OverrideState] {
        func corrupt(_ reason: String) -> OverrideStoreError { .corrupt(path: path, reason: reason) }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw corrupt("the file is empty (expected a JSON object like {\"version\":1,\"overrides\":{}})")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw corrupt("not valid JSON (\((error as NSError).localizedDescription))")
        }
        guard let object = root as? [String: Any] else { throw corrupt("expected a JSON object at the top level") }
        guard object["version"] != nil else { throw corrupt("missing \"version\" (expected 1)") }
        struct Header: Decodable { let version: Int }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.version == Self.version else {
            throw corrupt("unsupported \"version\" \(object["version"].map { "\($0)" } ?? "") (expected \(Self.version))")
        }
        guard let rawOverrides = object["overrides"] else { throw corrupt("missing \"overrides\" (expected an object)") }
        guard let entries = rawOverrides as? [String: Any] else {
            throw corrupt("\"overrides\" must be an object of key → \"on\"/\"off\"")
        }
        var result: [String: OverrideState] = [:]
        for (key, value) in entries {
            guard let word = value as? String else {
                throw corrupt("overrides[\"\(key)\"] must be \"on\" or \"off\", found a \(value is NSNumber ? "number or boolean" : "non-string value")")
            }
            switch word {
            case "on": result[key] = .enabled
            case "off": result[key] = .disabled
            default: throw corrupt("overrides[\"\(key)\"] must be \"on\" or \"off\", found \"\(word)\"")
            }
        }
        return result
    }

    /// Encodes overrides, keys sorted, one per line, so diffs of the file stay readable.
    static func encode(_ overrides: [String: OverrideState]) -> Data {
        var text = "{\n  \"version\": \(version),\n  \"overrides\": {"
        let entries = overrides.filter { $0.value != .featureDefault }.sorted { $0.key < $1.key }
        for (index, entry) in entries.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += "    \(JSONText.quoted(entry.key)): \"\(entry.value == .enabled ? "on" : "off")\""
        }
        text += entries.isEmpty ? "}\n}\n" : "\n  }\n}\n"
        return Data(text.utf8)
    }
}
