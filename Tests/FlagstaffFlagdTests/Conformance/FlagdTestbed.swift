import Flagstaff
import FlagstaffFlagd
import Foundation
import Testing

/// Locates flagd's test bed (`flagd-testbed`, release 3.9.0) outside the repository and runs its scenarios.
///
/// Looked for at `$FLAGSTAFF_FLAGD_TESTBED_DIR`; else beside the Unleash specification when
/// `FLAGSTAFF_CONFORMANCE_DIR` points at it; else `shared/conformance/flagd-testbed` in the nearest folder above the
/// package root that has one (`../shared/conformance` for a checkout in the workplace). Never copied into the
/// repository.
enum FlagdTestbed {
    /// The package root: three levels above this file (`Tests/FlagstaffFlagdTests/Conformance/`).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let candidates: [URL] = {
        let environment = ProcessInfo.processInfo.environment
        var found: [URL] = []
        if let folder = environment["FLAGSTAFF_FLAGD_TESTBED_DIR"], !folder.isEmpty {
            found.append(URL(fileURLWithPath: folder))
        }
        if let unleash = environment["FLAGSTAFF_CONFORMANCE_DIR"], !unleash.isEmpty {
            found.append(
                URL(fileURLWithPath: unleash).deletingLastPathComponent().appendingPathComponent("flagd-testbed"))
        }
        var folder = packageRoot.deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            found.append(folder.appendingPathComponent("shared/conformance/flagd-testbed"))
            folder = folder.deletingLastPathComponent()
        }
        return found
    }()

    /// The test bed's folder, or `nil` when none of the candidates holds `evaluator/flags/testkit-flags.json`.
    static let directory: URL? = candidates.first { candidate in
        FileManager.default.fileExists(
            atPath: candidate.appendingPathComponent("evaluator/flags/testkit-flags.json").path)
    }

    static let missingReason = Comment(
        rawValue: "flagd test bed not found (looked in \(candidates.prefix(3).map(\.path).joined(separator: ", ")), …; "
            + "set FLAGSTAFF_FLAGD_TESTBED_DIR to the flagd-testbed folder)")

    /// The features of a folder of the test bed, by file name.
    static func features(in folder: String) throws -> [GherkinFeature] {
        guard let directory else { return [] }
        let url = directory.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".feature") }
            .sorted()
        return try names.map { name in
            let text = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            return try GherkinFeature(text: text, file: "\(folder)/\(name)")
        }
    }

    /// The documents of the provider suite's `flags/` folder, in name order (a later file's flag wins).
    static func providerFlagDocuments() throws -> [(source: String, json: Data)] {
        guard let directory else { return [] }
        let url = directory.appendingPathComponent("flags")
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".json") }
            .sorted()
        return try names.map { ("flags/\($0)", try Data(contentsOf: url.appendingPathComponent($0))) }
    }

    static func evaluatorFlags() throws -> Data {
        guard let directory else { return Data() }
        return try Data(contentsOf: directory.appendingPathComponent("evaluator/flags/testkit-flags.json"))
    }
}
