import Flagstaff
import Foundation

/// The JSON reader, the manifest schema and launch overrides.
extension FuzzTarget {
    /// ``JSONValue/readDocument(_:)`` (``JSONReader`` with member ranges), canonical values and string literals.
    static let jsonValue = FuzzTarget(
        name: "json-value",
        summary:
            "JSON reader (JSONValue.readDocument, members; readFoundation); OverrideValue and JSONText.quoted round trips"
    ) { data in
        // Any text quoted by the writer reads back as the same string.
        let text = FuzzCheck.text(data)
        do {
            let quoted = JSONText.quoted(text, alsoEscaping: TextSanitizer.isUnsafe)
            FuzzCheck.equal(try JSONValue.read(Data(quoted.utf8)).stringValue, text, "JSONText.quoted")
        } catch {
            FuzzCheck.fail("JSONText.quoted wrote text that is not JSON: \(error)")
        }
        let document: JSONValue.Document
        do throws(JSONValue.SyntaxError) {
            document = try JSONValue.readDocument(data)
        } catch {
            if error.detail?.isEmpty != false && error.duplicate == nil {
                FuzzCheck.fail("JSONValue.readDocument threw an error that says nothing")
            }
            return
        }
        let value = document.value
        _ = value.summary
        // The same reader into Foundation objects accepts the same text, to the same value.
        do throws(JSONValue.SyntaxError) {
            let object = try JSONValue.readFoundation(data)
            let written = OverrideValue.canonicalText(object)
            do {
                FuzzCheck.equal(try JSONValue.read(Data(written.utf8)), value, "Foundation objects")
            } catch {
                FuzzCheck.fail("Foundation objects read are written as text that is not JSON: \(written)")
            }
        } catch {
            FuzzCheck.fail("JSONValue.readFoundation refused a text JSONValue.readDocument read: \(error.message)")
        }
        // The members reported are the object's, each value's range holding that value.
        if case .object(let object) = value {
            FuzzCheck.equal(Set(document.members.map(\.name)), Set(object.keys), "top-level member names")
            for member in document.members {
                guard member.value.lowerBound >= 0, member.value.upperBound <= document.text.count else {
                    FuzzCheck.fail("member \(member.name) has range \(member.value) in \(document.text.count) bytes")
                }
                do {
                    let slice = Data(document.json(member.value).utf8)
                    FuzzCheck.equal(try JSONValue.read(slice), object[member.name], "member \(member.name)")
                } catch {
                    FuzzCheck.fail("the range of member \(member.name) is not its value: \(error)")
                }
            }
        } else if !document.members.isEmpty {
            FuzzCheck.fail("members reported for a value that is not an object")
        }
        // The text's canonical form reads, and reads back to itself.
        do {
            let canonical = try OverrideValue(json: String(decoding: document.text, as: UTF8.self))
            FuzzCheck.equal(try OverrideValue(json: canonical.json), canonical, "canonical JSON text")
            FuzzCheck.equal(try JSONValue.read(Data(canonical.json.utf8)), value, "canonical JSON value")
        } catch {
            FuzzCheck.fail("a value that reads has no canonical text that reads: \(error)")
        }
    }

    /// The manifest reader (``RegistryManifest/decode(_:source:)``), compared with the `Decodable` conformance.
    static let manifest = FuzzTarget(
        name: "manifest",
        summary: "manifest reader (JSONReader via RegistryManifest.decode); JSONEncoder round trip"
    ) { data in
        let manifest: RegistryManifest
        do {
            manifest = try RegistryManifest.decode(data, source: "fuzz.json")
        } catch {
            FuzzCheck.described(error, as: ManifestError.self, by: "RegistryManifest.decode")
            return
        }
        let encoded: Data
        do {
            encoded = try JSONEncoder().encode(manifest)
        } catch {
            FuzzCheck.fail("a manifest that was read cannot be encoded: \(error)")
        }
        do {
            FuzzCheck.equal(try RegistryManifest.decode(encoded, source: "encoded.json"), manifest, "manifest")
        } catch {
            FuzzCheck.fail("an encoded manifest does not read back: \(error)\n\(FuzzCheck.text(encoded))")
        }
    }

    /// ``LaunchOverrides`` from `FLAGSTAFF_OVERRIDES` and `-flagstaff` arguments: the input's text up to its first
    /// NUL is the variable, each NUL-separated piece after it an argument.
    static let launchOverrides = FuzzTarget(
        name: "launch-overrides",
        summary: "FLAGSTAFF_OVERRIDES and -flagstaff arguments (LaunchOverrides); JSON values round trip"
    ) { data in
        let pieces = data.split(separator: 0, omittingEmptySubsequences: false).map { FuzzCheck.text(Data($0)) }
        let overrides = LaunchOverrides(
            environment: [LaunchOverrides.environmentVariable: pieces[0]], arguments: Array(pieces.dropFirst()))
        for problem in overrides.problems where problem.trimmingCharacters(in: .whitespaces).isEmpty {
            FuzzCheck.fail("an empty launch override problem")
        }
        for (key, value) in overrides.values {
            // `key=value` refuses an empty key; the export format keeps any key (the registry reports unknown ones).
            if case .text = value, key.trimmingCharacters(in: .whitespaces).isEmpty {
                FuzzCheck.fail("a key=value launch override with an empty key")
            }
            if case .json(let json) = value {
                do {
                    FuzzCheck.equal(try OverrideValue(json: json.json), json, "launch override \(key)")
                } catch {
                    FuzzCheck.fail("launch override \(key): canonical text \(json.json) does not read: \(error)")
                }
            }
        }
    }
}
