import Foundation
import Testing

@Suite("flagstaff set and reset")
struct SetAndResetCommandTests {
    @Test func setWritesOnOffAndRemovesOnDefault() async throws {
        let sandbox = try CLISandbox()
        let on = try await sandbox.runWithStore(["set", "list.infiniteScroll", "on"])
        #expect(on.status == 0, "\(on)")
        #expect(on.standardOutput == "list.infiniteScroll: on (ON by override)\n")
        #expect(try sandbox.storedOverrides() == ["list.infiniteScroll": "on"])
        #expect(try await sandbox.runWithStore(["set", "blueText", "OFF"]).status == 0)
        #expect(try sandbox.storedOverrides() == ["list.infiniteScroll": "on", "blueText": "off"])
        let reset = try await sandbox.runWithStore(["set", "list.infiniteScroll", "default"])
        #expect(reset.status == 0)
        #expect(reset.standardOutput == "list.infiniteScroll: default (OFF by default)\n")
        #expect(try sandbox.storedOverrides() == ["blueText": "off"])
    }

    @Test func setOfARestartFlagSaysSo() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["set", "moments.isLikeButtonForMomentEnabled", "on"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("requires a restart"))
        let quiet = try await sandbox.runWithStore(["set", "blueText", "on"])
        #expect(quiet.standardError.isEmpty)
    }

    @Test func setKeepsOverridesOfKeysTheRegistryDoesNotDeclare() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"other.app.flag":"on"}}"#)
        #expect(try await sandbox.runWithStore(["set", "blueText", "on"]).status == 0)
        #expect(try sandbox.storedOverrides() == ["other.app.flag": "on", "blueText": "on"])
    }

    @Test func resetRemovesTheGivenKeysInOneWrite() async throws {
        let sandbox = try CLISandbox()
        for key in ["blueText", "debugLogging", "list.compactRows"] {
            #expect(try await sandbox.runWithStore(["set", key, "on"]).status == 0)
        }
        let result = try await sandbox.runWithStore(["reset", "blueText", "list.compactRows"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("blueText: default (OFF by default)"))
        #expect(try sandbox.storedOverrides() == ["debugLogging": "on"])
        let again = try await sandbox.runWithStore(["reset", "blueText"])
        #expect(again.standardOutput == "nothing to reset\n")
    }

    @Test func resetAllKeepsForeignKeys() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write(
            "overrides.json",
            #"{"version":1,"overrides":{"other.app.flag":"on","blueText":"on","list.compactRows":"off"}}"#)
        let result = try await sandbox.runWithStore(["reset", "--all"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.storedOverrides() == ["other.app.flag": "on"])
    }

    @Test(arguments: [["reset"], ["reset", "--all", "blueText"]])
    func resetNeedsKeysOrAllButNotBoth(arguments: [String]) async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let before = sandbox.storeBytes()
        let result = try await sandbox.runWithStore(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("--all"))
        #expect(sandbox.storeBytes() == before)
    }

    @Test func resetWithOneUnknownKeyChangesNothing() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let before = sandbox.storeBytes()
        let result = try await sandbox.runWithStore(["reset", "blueText", "list.infinitScroll"])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("unknown flag key 'list.infinitScroll'"))
        #expect(result.standardError.contains("did you mean 'list.infiniteScroll'"))
        #expect(sandbox.storeBytes() == before)
    }
}
