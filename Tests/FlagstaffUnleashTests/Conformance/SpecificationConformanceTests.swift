import Foundation
import Testing

@testable import FlagstaffUnleash

/// Runs every case of the Unleash client specification against ``UnleashEngine``.
@Suite(.enabled(if: SpecificationSuite.directory != nil, SpecificationSuite.missingReason))
struct SpecificationConformanceTests {
    @Test("specification file passes", arguments: SpecificationSuite.fileNames)
    func specificationFile(_ name: String) throws {
        let file = try SpecificationSuite.load(name)
        let engine = UnleashEngine()
        try engine.takeState(file.state)
        for testCase in file.tests {
            let context = try UnleashContext.decode(json: testCase.context)
            let expected = try #require(
                testCase.expected as? Bool, "\(name): \(testCase.description): expectedResult is not a Bool")
            let actual = engine.isEnabled(testCase.toggleName, context: context)
            if actual != expected {
                Issue.record(
                    "\(name): \(testCase.description): isEnabled(\(testCase.toggleName)) expected \(expected), got \(actual)"
                )
            }
            let evaluation = engine.evaluate(testCase.toggleName, context: context)
            if evaluation.enabled != expected {
                Issue.record(
                    "\(name): \(testCase.description): evaluate(\(testCase.toggleName)).enabled expected \(expected), got \(evaluation.enabled)"
                )
            }
        }
        for testCase in file.variantTests {
            let context = try UnleashContext.decode(json: testCase.context)
            let expectedData = try JSONSerialization.data(withJSONObject: testCase.expected)
            let expected = try JSONDecoder().decode(UnleashVariant.self, from: expectedData)
            let actual = engine.variant(testCase.toggleName, context: context)
            if actual != expected {
                Issue.record(
                    "\(name): \(testCase.description): variant(\(testCase.toggleName)) expected \(expected), got \(actual)"
                )
            }
            let evaluation = engine.evaluate(testCase.toggleName, context: context)
            if evaluation.variant != expected {
                Issue.record(
                    "\(name): \(testCase.description): evaluate(\(testCase.toggleName)).variant expected \(expected), got \(evaluation.variant)"
                )
            }
        }
    }

    @Test("the suite holds the 227 tests and 52 variant tests the issue names")
    func suiteIsComplete() throws {
        var tests = 0
        var variantTests = 0
        for name in SpecificationSuite.fileNames {
            let file = try SpecificationSuite.load(name)
            tests += file.tests.count
            variantTests += file.variantTests.count
        }
        #expect(SpecificationSuite.fileNames.count == 22)
        #expect(tests == 227)
        #expect(variantTests == 52)
    }
}
