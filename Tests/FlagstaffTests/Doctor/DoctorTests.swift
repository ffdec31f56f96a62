import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

/// The store doctor's findings (a pure function of a registry and overrides) and its one-write fix.
@Suite struct DoctorTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }
    let quiet = RegistryOptions(storeWatchInterval: nil, assertOnProblems: false, launchOverrides: .none)

    private func json(_ text: String) throws -> OverrideValue { try OverrideValue(json: text) }

    private func kinds(_ report: DoctorReport) -> [String: DoctorFinding.Kind] {
        Dictionary(report.findings.compactMap { finding in finding.key.map { ($0, finding.kind) } }) { a, _ in a }
    }

    @Test func anOverrideForAKeyTheRegistryDoesNotDeclareIsAnOrphanFixedByRemovingIt() {
        let registry = FeatureRegistry(AppFeatures(), options: quiet)
        let report = StoreDoctor.examine(registry, overrides: ["gone.flag": .on, "blueText": .on])
        #expect(report.findings.count == 1)
        let finding = report.findings[0]
        #expect(finding.kind == .orphan && finding.key == "gone.flag" && finding.severity == .warning)
        #expect(finding.storedValue == .on)
        #expect(finding.fix == .removeOverride("gone.flag"))
        #expect(finding.message.contains("App Features has no flag or setting"))
        let removal: [String: OverrideEdit] = ["gone.flag": .remove]
        #expect(report.fixChanges == removal)
        #expect(!report.isClean)
    }

    @Test func anOverrideEqualToAStaticDefaultIsANoOp() throws {
        let registry = FeatureRegistry(TypedFeatures(), options: quiet)
        let report = StoreDoctor.examine(
            registry,
            overrides: [
                "blueText": .off, "maxItems": try json("20"), "cardColor": try json(##""#f05138""##),
                "theme": try json(#""dark""#), "compact": try json("true"),
            ])
        #expect(kinds(report) == ["blueText": .noOp, "maxItems": .noOp, "cardColor": .noOp])
        #expect(report.findings.allSatisfy { $0.severity == .warning && $0.fix == .removeOverride($0.key ?? "") })
        let maxItems = try #require(report.findings.first { $0.key == "maxItems" })
        #expect(maxItems.message == "equals its value without the override (20 by default)")
        // Canonical JSON: an integral double and an object with its members in another order are equal values.
        let canonical = StoreDoctor.examine(
            registry,
            overrides: [
                "maxItems": try json("20.0"),
                "config": try json(
                    ##"{"themeColors":{"primary":"#f05138"},"maxUploadSize":10485760,"isNewFeatureEnabled":false}"##),
            ])
        #expect(kinds(canonical) == ["maxItems": .noOp, "config": .noOp])
    }

    @Test func aValueOfTheWrongTypeIsAnErrorWithoutAFix() throws {
        let registry = FeatureRegistry(TypedFeatures(), options: quiet)
        let report = StoreDoctor.examine(
            registry,
            overrides: ["blueText": try json("3"), "maxItems": try json("500"), "theme": try json(#""sepia""#)])
        #expect(kinds(report) == ["blueText": .wrongType, "maxItems": .wrongType, "theme": .wrongType])
        #expect(report.findings.allSatisfy { $0.severity == .error && $0.fix == nil && $0.advice != nil })
        #expect(report.fixChanges.isEmpty)
        let maxItems = try #require(report.findings.first { $0.key == "maxItems" })
        #expect(maxItems.message == "stored value 500 is ignored: must be 1…100")
    }

    @Test func anOverrideEqualToAValueThatCanChangeOnlyPinsItAndLeavesTheStoreClean() throws {
        let registry = FeatureRegistry(AppFeatures(), options: quiet)
        let dynamicNow = registry.tuesdayExperiment.valueWithoutOverride
        let buildTargetNow = registry.internalTools.valueWithoutOverride
        let report = StoreDoctor.examine(
            registry, overrides: ["tuesdayExperiment": dynamicNow, "internalTools": buildTargetNow])
        #expect(kinds(report) == ["tuesdayExperiment": .pinsCurrentValue, "internalTools": .pinsCurrentValue])
        #expect(report.findings.allSatisfy { $0.severity == .info && $0.fix == nil })
        #expect(report.isClean)
        #expect(report.findings.first { $0.key == "tuesdayExperiment" }?.message.contains("from dynamic") == true)
    }

    @Test func aSettingBoundToARemoteKeyIsPinnedNotANoOpEvenBeforeARemoteValueArrives() throws {
        let registry = FeatureRegistry(TypedFeatures(), options: quiet)
        let source = FakeSettingSource()
        registry.maxItems.bind(to: SettingRemoteBinding(source: source, key: "max_items"))
        // No remote value: the value without override is the default, but a fetch may change it.
        #expect(
            kinds(StoreDoctor.examine(registry, overrides: ["maxItems": try json("20")])) == [
                "maxItems": .pinsCurrentValue
            ])
        source.set("max_items", "40")
        #expect(
            kinds(StoreDoctor.examine(registry, overrides: ["maxItems": try json("40")])) == [
                "maxItems": .pinsCurrentValue
            ])
        #expect(StoreDoctor.examine(registry, overrides: ["maxItems": try json("20")]).findings.isEmpty)
    }

    @Test func anExpiredOverrideIsReportedAsExpiredWhateverItsKey() throws {
        let registry = FeatureRegistry(AppFeatures(), options: quiet)
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        let report = StoreDoctor.examine(
            registry, overrides: ["blueText": .on, "gone": .off], expired: ["blueText": when, "gone": when])
        #expect(kinds(report) == ["blueText": .expired, "gone": .expired])
        let finding = report.findings[0]
        #expect(finding.expiredAt == when && finding.fix == .removeOverride("blueText"))
        #expect(finding.message == "expired at 2027-01-15T08:00:00.000Z; no one applies it")
    }

    @Test func aSnapshotIsJudgedAtTheMomentGiven() throws {
        let registry = FeatureRegistry(AppFeatures(), options: quiet)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let snapshot = StoreSnapshot(
            overrides: ["blueText": .on, "newURLFormat": .on],
            expiries: ["blueText": OverrideExpiry(expiresAt: start + 3600, setAt: start)])
        #expect(StoreDoctor.examine(registry, snapshot: snapshot, now: start + 3599).findings.isEmpty)
        let later = StoreDoctor.examine(registry, snapshot: snapshot, now: start + 3600)
        #expect(later.findings.map(\.kind) == [.expired])
        #expect(later.findings[0].expiredAt == start + 3600)
    }

    @Test func fixRemovesExpiredOverridesInTheSameWriteAndUndoDoesNotBringThemBack() throws {
        let clock = ManualClock()
        let seed = try FileOverrideStore(url: file, journal: nil, wallClock: clock)
        let expiry = OverrideExpiry(expiresAt: clock.date + 60, setAt: clock.date)
        _ = try seed.write(OverrideChange(["blueText": .set(.on), "gone": .set(.on)], expiries: ["blueText": expiry]))
        let registry = FeatureRegistry(
            AppFeatures(), store: try FileOverrideStore(url: file, wallClock: clock),
            options: RegistryOptions(
                storeWatchInterval: nil, assertOnProblems: false, clock: clock, launchOverrides: .none,
                wallClock: clock))
        clock.advance(by: .seconds(61))
        #expect(kinds(RegistryDoctor(registry).diagnose()) == ["blueText": .expired, "gone": .orphan])
        let outcome = try RegistryDoctor(registry).fix()
        #expect(outcome.fixed.map(\.kind) == [.expired, .orphan])
        #expect(outcome.remaining.findings.isEmpty)
        #expect(try seed.loadSnapshot() == StoreSnapshot())
        let changes = try #require(try FileOverrideStore(url: file).journal()).read().changes
        #expect(changes.map(\.origin) == [.expiry, .doctor])
        #expect(changes.map(\.keys) == [["blueText"], ["gone"]])
        try ChangeHistory(registry).undo()
        #expect(try seed.load() == ["gone": .on])
    }

    @Test func registryDeclarationProblemsComeFirstAsErrors() {
        let registry = FeatureRegistry(DuplicateFeatures(), options: quiet)
        let report = StoreDoctor.examine(registry, overrides: ["gone": .on])
        #expect(report.findings.map(\.kind) == [.registryProblem, .orphan])
        let problem = report.findings[0]
        #expect(problem.key == "shared" && problem.severity == .error && problem.fix == nil)
        #expect(problem.message.contains("duplicate key 'shared'"))
    }

    @Test func aCleanStoreHasNoFindings() {
        let registry = FeatureRegistry(AppFeatures(), options: quiet)
        let report = StoreDoctor.examine(registry, overrides: ["blueText": .on, "debugLogging": .off])
        #expect(report.findings.isEmpty && report.isClean && report.fixChanges.isEmpty)
    }

    @Test func fixRemovesOrphansAndNoOpsInOneJournaledChangeThatUndoesInOneStep() throws {
        let seed = try FileOverrideStore(url: file, journal: nil)
        let original: [String: OverrideValue] = [
            "gone": .on, "maxItems": try json("7"), "blueText": .off, "debugLogging": try json("3"),
            "newURLFormat": .on,
        ]
        _ = try seed.write(OverrideChange(original.mapValues { .set($0) }))
        let registry = FeatureRegistry(AppFeatures(), store: try FileOverrideStore(url: file), options: quiet)
        let outcome = try RegistryDoctor(registry).fix()
        #expect(outcome.fixed.map(\.key) == ["blueText", "gone", "maxItems"])
        #expect(outcome.remaining.findings.map(\.key) == ["debugLogging"], "a wrong type stays")
        #expect(try seed.load() == ["debugLogging": try json("3"), "newURLFormat": .on])
        #expect(registry.storedOverrides == (try seed.load()))
        let changes = try #require(try FileOverrideStore(url: file).journal()).read().changes
        #expect(changes.map(\.origin) == [.doctor])
        #expect(Set(changes[0].keys) == ["blueText", "gone", "maxItems"])
        // Idempotent: nothing left to fix, nothing written.
        let again = try RegistryDoctor(registry).fix()
        #expect(again.fixed.isEmpty)
        #expect(try #require(try FileOverrideStore(url: file).journal()).read().changes.count == 1)
        try ChangeHistory(registry).undo()
        #expect(try seed.load() == original)
    }

    @Test func fixJudgesEachEntryByTheStoreAsItIsUnderTheLock() throws {
        let seed = try FileOverrideStore(url: file, journal: nil)
        _ = try seed.write(["blueText": .set(.off), "gone": .set(.on)])
        let registry = FeatureRegistry(AppFeatures(), store: try FileOverrideStore(url: file), options: quiet)
        #expect(kinds(RegistryDoctor(registry).diagnose()) == ["blueText": .noOp, "gone": .orphan])
        // Another process forces blueText on after the diagnosis: that override means something now.
        _ = try seed.write(["blueText": .set(.on)])
        let outcome = try RegistryDoctor(registry).fix()
        #expect(outcome.fixed.map(\.key) == ["gone"])
        #expect(try seed.load() == ["blueText": .on])
        #expect(registry.blueText.enabled)
    }

    @Test func fixingANoOpOfAMemberWaitingForARestartChangesNeitherItsValueNorThePendingState() throws {
        let seed = try FileOverrideStore(url: file, journal: nil)
        _ = try seed.write(["useTabBarNav": .set(.on)])
        let registry = FeatureRegistry(AppFeatures(), store: try FileOverrideStore(url: file), options: quiet)
        registry.useTabBarNav.override = .disabled
        #expect(registry.useTabBarNav.isPendingRestart && !registry.useTabBarNav.enabled)
        #expect(kinds(RegistryDoctor(registry).diagnose()) == ["useTabBarNav": .noOp])
        try RegistryDoctor(registry).fix()
        #expect(registry.useTabBarNav.override == .featureDefault)
        #expect(registry.useTabBarNav.isPendingRestart && !registry.useTabBarNav.enabled)
    }

    @Test func fixOnAnInMemoryStoreWritesOnce() throws {
        let store = InMemoryOverrideStore(["gone": .on, "blueText": .on])
        let registry = FeatureRegistry(AppFeatures(), store: store, options: quiet)
        let outcome = try RegistryDoctor(registry).fix()
        #expect(outcome.fixed.map(\.kind) == [.orphan])
        #expect(store.load() == ["blueText": .on])
        #expect(outcome.remaining.findings.isEmpty)
    }

    @Test func fixOnACorruptStoreThrowsNamingTheFileAndWritesNothing() throws {
        try Data("{not json".utf8).write(to: file)
        let registry = FeatureRegistry(AppFeatures(), store: try FileOverrideStore(url: file), options: quiet)
        let error = #expect(throws: (any Error).self) { try RegistryDoctor(registry).fix() }
        #expect("\(error.map { "\($0)" } ?? "")".contains(file.lastPathComponent))
        #expect(try Data(contentsOf: file) == Data("{not json".utf8))
    }
}
