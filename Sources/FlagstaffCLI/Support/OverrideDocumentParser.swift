import Flagstaff
import Foundation

/// Reads an override document for `flagstaff import`, strictly.
///
/// Accepted shape: `{"version":1,"overrides":{"key":"on","other":"off","third":"default"}}` (the store format,
/// plus `default` to remove an override). Any other field, type or value is an error naming the file and the
/// JSON path.
enum OverrideDocumentParser {
    /// Parses the document.
    /// - Parameters:
    ///   - data: the bytes.
    ///   - source: the file name for messages.
    /// - Returns: the overrides, sorted by key.
    /// - Throws: `CLIFailure.runtime` naming the file, the JSON path and what was expected.
    static func parse(_ data: Data, source: String) throws -> [(key: String, state: OverrideState)] {
        func fail(_ path: String?, _ message: String) -> CLIFailure {
            CLIFailure.runtime("\(TerminalText.safe(source)): \(path.map { "\($0): " } ?? "")\(message)")
        }
        let expectedShape = "{\"version\":1,\"overrides\":{\"key\":\"on\"}}"
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw fail(nil, "not valid JSON; expected \(expectedShape)")
        }
        guard case .object(let object) = root else {
            throw fail("$", "expected an object like \(expectedShape), found \(root.summary)")
        }
        for field in object.keys.sorted() where field != "version" && field != "overrides" {
            throw fail("$.\(TerminalText.safe(field))", "unknown field (expected \"version\" and \"overrides\")")
        }
        guard let version = object["version"] else { throw fail("$", "missing required field \"version\" (expected 1)") }
        guard version == .number(1) else { throw fail("$.version", "expected 1, found \(version.summary)") }
        guard let rawOverrides = object["overrides"] else {
            throw fail("$", "missing required field \"overrides\" (expected an object)")
        }
        guard case .object(let entries) = rawOverrides else {
            throw fail("$.overrides", "expected an object of key → \"on\", \"off\" or \"default\", found \(rawOverrides.summary)")
        }
        var result: [(key: String, state: OverrideState)] = []
        for key in entries.keys.sorted() {
            let path = "$.overrides[\(JSONValue.quoted(key))]"
            let expected = "expected \"on\", \"off\" or \"default\""
            guard case .string(let word) = entries[key] ?? .null else {
                throw fail(path, "\(expected), found \((entries[key] ?? .null).summary)")
            }
            switch word {
            case "on": result.append((key, .enabled))
            case "off": result.append((key, .disabled))
            case "default": result.append((key, .featureDefault))
            default: throw fail(path, "\(expected), found \(JSONValue.quoted(word))")
            }
        }
        return result
    }
}
