import Foundation
import Testing

/// Locates and reads the Unleash client specification (`unleash-client-specification`) outside the repository.
///
/// The suite lives at `../shared/conformance/unleash-client-specification` relative to the package root (found from
/// this file's path), or wherever `FLAGSTAFF_CONFORMANCE_DIR` points. It is never copied into the repository.
enum SpecificationSuite {
    /// One specification file: its state and its cases.
    struct File {
        let name: String
        let state: Data
        let tests: [Case]
        let variantTests: [Case]
    }

    /// One case: a context, a toggle name and the expected answer (a Bool or a variant object).
    struct Case {
        let description: String
        let context: Data
        let toggleName: String
        let expected: Any
    }

    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Where the suite is looked for: `$FLAGSTAFF_CONFORMANCE_DIR`, else `../shared/conformance/…` from the package root.
    static let candidateDirectory: URL = {
        if let override = ProcessInfo.processInfo.environment["FLAGSTAFF_CONFORMANCE_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent(
            "shared/conformance/unleash-client-specification")
    }()

    /// The folder holding `index.json`, or `nil` when there is none.
    static let directory: URL? = {
        let index = candidateDirectory.appendingPathComponent("index.json")
        return FileManager.default.fileExists(atPath: index.path) ? candidateDirectory : nil
    }()

    /// Why the suite is skipped when ``directory`` is `nil`.
    static let missingReason = Comment(
        rawValue: "Unleash client specification not found: no index.json in \(candidateDirectory.path) "
            + "(set FLAGSTAFF_CONFORMANCE_DIR to the unleash-client-specification folder)")

    /// The package root: three levels above this file (`Tests/FlagstaffUnleashTests/Conformance/`).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The file names `index.json` lists, or an empty list when the suite is absent or unreadable.
    static let fileNames: [String] = {
        guard let directory, let data = try? Data(contentsOf: directory.appendingPathComponent("index.json")),
            let names = try? JSONSerialization.jsonObject(with: data) as? [String]
        else { return [] }
        return names
    }()

    /// Reads one specification file.
    static func load(_ name: String) throws -> File {
        guard let directory else { throw LoadError(description: "specification folder not found") }
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let state = object["state"]
        else { throw LoadError(description: "\(name): expected an object with \"state\"") }
        func cases(_ key: String) throws -> [Case] {
            guard let list = object[key] else { return [] }
            guard let entries = list as? [[String: Any]] else {
                throw LoadError(description: "\(name): \(key) is not a list")
            }
            return try entries.map { entry in
                guard let description = entry["description"] as? String, let toggle = entry["toggleName"] as? String,
                    let expected = entry["expectedResult"]
                else {
                    throw LoadError(
                        description: "\(name): a case in \(key) lacks description/toggleName/expectedResult")
                }
                let context = try JSONSerialization.data(withJSONObject: entry["context"] ?? [String: Any]())
                return Case(description: description, context: context, toggleName: toggle, expected: expected)
            }
        }
        return File(
            name: name, state: try JSONSerialization.data(withJSONObject: state), tests: try cases("tests"),
            variantTests: try cases("variantTests"))
    }
}
