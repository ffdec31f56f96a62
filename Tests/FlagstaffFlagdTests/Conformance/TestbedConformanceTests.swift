import Flagstaff
import FlagstaffFlagd
import Foundation
import Testing

/// flagd's test bed: every scenario of `evaluator/gherkin/*.feature` (against `evaluator/flags/testkit-flags.json`)
/// and of `gherkin/targeting.feature` (against the provider suite's `flags/*.json`), once with bucketing version 2
/// and once with version 3.
///
/// `@fractional-v1` scenarios are skipped: version 1 (a float percentage of a signed hash) is legacy, no flagd
/// server buckets that way today, and this evaluator does not offer it. `@fractional-v2` scenarios run with
/// version 2 only and `@fractional-v3` ones with version 3 only; the rest run with both.
@Suite(.enabled(if: FlagdTestbed.directory != nil, FlagdTestbed.missingReason))
struct TestbedConformanceTests {
    static let versions: [FlagdBucketing] = [.version2, .version3]

    /// Whether a scenario runs with `bucketing`.
    static func selected(_ scenario: GherkinFeature.Scenario, _ bucketing: FlagdBucketing) -> Bool {
        if scenario.tags.contains("@fractional-v1") { return false }
        switch bucketing {
        case .version2: return !scenario.tags.contains("@fractional-v3")
        case .version3: return !scenario.tags.contains("@fractional-v2")
        }
    }

    /// Runs the scenarios; returns how many ran.
    static func run(_ features: [GherkinFeature], _ definitions: FlagdDefinitions) -> Int {
        let runner = ScenarioRunner(definitions: definitions)
        var ran = 0
        var failures: [String] = []
        for feature in features {
            for scenario in feature.scenarios where selected(scenario, definitions.bucketing) {
                ran += 1
                if let failure = runner.run(scenario) { failures.append(failure) }
            }
        }
        if !failures.isEmpty {
            let list = failures.prefix(30).joined(separator: "\n")
            Issue.record(Comment(rawValue: "\(failures.count) of \(ran) scenarios failed:\n\(list)"))
        }
        return ran
    }

    @Test("evaluator/ features pass", arguments: versions)
    func evaluatorFeatures(_ bucketing: FlagdBucketing) throws {
        let definitions = try FlagdDefinitions(
            json: FlagdTestbed.evaluatorFlags(), source: "testkit-flags.json", bucketing: bucketing)
        let ran = Self.run(try FlagdTestbed.features(in: "evaluator/gherkin"), definitions)
        // 11 features; more than a hundred example rows either way.
        #expect(ran > 100, "only \(ran) scenarios ran")
    }

    @Test("gherkin/targeting.feature passes", arguments: versions)
    func targetingFeature(_ bucketing: FlagdBucketing) throws {
        let definitions = try FlagdDefinitions(documents: FlagdTestbed.providerFlagDocuments(), bucketing: bucketing)
        let features = try FlagdTestbed.features(in: "gherkin").filter { $0.name == "Targeting rules" }
        #expect(features.count == 1)
        let ran = Self.run(features, definitions)
        #expect(ran > 80, "only \(ran) scenarios ran")
    }
}
