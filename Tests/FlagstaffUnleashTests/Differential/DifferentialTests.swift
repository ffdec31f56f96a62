import Foundation
import Testing

@testable import FlagstaffUnleash

/// Compares ``UnleashEngine`` with the reference engine, yggdrasil-engine, over generated contexts for every
/// state of the client specification: `isEnabled` and `variant` must be identical for every query.
///
/// Contexts are generated from a fixed seed per file. Queries where the reference answers at random by design
/// (no `userId` and no `sessionId`, or a missing custom stickiness field) are never generated.
@Suite(
    .enabled(if: SpecificationSuite.directory != nil, SpecificationSuite.missingReason),
    .enabled(if: DifferentialReference.isAvailable, DifferentialReference.skipComment)
)
struct DifferentialTests {
    static let contextsPerState = 200

    @Test("engine agrees with yggdrasil-engine on generated contexts", arguments: SpecificationSuite.fileNames)
    func agreesWithReference(_ name: String) async throws {
        let file = try SpecificationSuite.load(name)
        let state = try JSONSerialization.jsonObject(with: file.state)
        var generator = DifferentialContextGenerator(state: state, seed: Self.seed(for: name))
        let contexts = generator.contexts(count: Self.contextsPerState)
        let queries = try DifferentialQueries(contexts: contexts, flags: generator.flags)
        let reference = try await DifferentialReference.answers(state: state, queries: queries)

        let engine = UnleashEngine()
        try engine.takeState(file.state)
        var mismatches: [String] = []
        for (index, expected) in reference.enumerated() {
            let query = queries.query(index)
            let enabled = engine.isEnabled(query.flag, context: query.context)
            let variant = engine.variant(query.flag, context: query.context)
            if enabled != expected.enabled || variant != expected.variant {
                mismatches.append(
                    "\(name): flag \(query.flag) context \(query.json): "
                        + "reference enabled=\(expected.enabled) variant=\(expected.variant), "
                        + "flagstaff enabled=\(enabled) variant=\(variant)")
            }
        }
        #expect(queries.count >= Self.contextsPerState, "\(name): no queries were generated")
        if !mismatches.isEmpty {
            let firstOnes = mismatches.prefix(15).joined(separator: "\n")
            Issue.record(
                "\(name): \(mismatches.count) of \(queries.count) queries differ from yggdrasil-engine; first ones:\n\(firstOnes)"
            )
        }
    }

    /// FNV-1a of the file name: a seed that is stable across runs, machines and Swift versions.
    private static func seed(for name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
