import Flagstaff
import Foundation

/// The JSON value scanner, the manifest reader and launch overrides.
extension FuzzTarget {
    /// ``JSONValue/readDocument(_:)`` (with its member scanner), canonical values and string literals.
    static let jsonValue = FuzzTarget(
        name: "json-value",
        summary: "JSON value scanner (JSONValue.readDocument, members); OverrideValue and JSONText.quoted round trips"
    ) { data in
        // Any text quoted by the writer reads back as the same string.
        let text = FuzzCheck.text(data)
        do {
            let quoted = JSONText.quoted(text, alsoEscaping: TextSanitizer.isUnsafe)
            FuzzCheck.equal(try JSONValue.read(Data(quoted.utf8)) as? String, text, "JSONText.quoted")
        } catch {
            FuzzCheck.fail("JSONText.quoted wrote text that is not JSON: \(error)")
        }
        let document: JSONValue.Document
        do throws(JSONValue.SyntaxError) {
            document = try JSONValue.readDocument(data)
        } catch {
            if error.detail == nil && error.duplicate == nil {
                FuzzCheck.fail("JSONValue.readDocument threw an error that says nothing")
            }
            return
        }
        let value = JSONValue(document.value)
        _ = value.summary
        // The members found by the scanner are the object's, each value's range holding that value.
        if case .object(let object) = value {
            // swift-corelibs-foundation drops a raw U+FEFF that starts a string (or follows an escape) where the
            // scanner keeps it, so names are compared without it, and two names that differ only by it are one
            // (docs/fuzzing.md, "Known limits").
            func name(_ text: String) -> String {
                String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{FEFF}" }))
            }
            FuzzCheck.equal(
                Set(document.members.map { name($0.name) }), Set(object.keys.map(name)), "top-level member names")
            // Names that are one only without U+FEFF: which value the parser kept is not the scanner's business.
            let names = document.members.map { name($0.name) }
            let ambiguous = Set(names.filter { stripped in names.count { $0 == stripped } > 1 })
            let byName = Dictionary(object.map { (name($0.key), $0.value) }) { first, _ in first }
            for member in document.members where !ambiguous.contains(name(member.name)) {
                guard member.value.lowerBound >= 0, member.value.upperBound <= document.text.count else {
                    FuzzCheck.fail("member \(member.name) has range \(member.value) in \(document.text.count) bytes")
                }
                do {
                    let slice = Data(document.json(member.value).utf8)
                    FuzzCheck.equal(
                        JSONValue(try JSONValue.read(slice)), byName[name(member.name)], "member \(member.name)")
                } catch {
                    FuzzCheck.fail("the range of member \(member.name) is not its value: \(error)")
                }
            }
        } else if !document.members.isEmpty {
            FuzzCheck.fail("members reported for a value that is not an object")
        }
        // A value's canonical text reads back to the same value.
        let canonical = OverrideValue(jsonObject: document.value)
        do {
            FuzzCheck.equal(try OverrideValue(json: canonical.json), canonical, "canonical JSON text")
        } catch {
            FuzzCheck.fail("canonical text \(canonical.json) does not read: \(error)")
        }
    }

    /// The manifest reader (``RegistryManifest/decode(_:source:)``), compared with the `Decodable` conformance.
    static let manifest = FuzzTarget(
        name: "manifest",
        summary: "manifest reader (ManifestReader via RegistryManifest.decode); JSONEncoder round trip"
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
