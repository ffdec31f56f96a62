import Foundation
import Testing

/// A negative number where a value is expected is that value, then validated (it read as an unknown short
/// option, and the command said "missing VALUE").
@Suite struct NegativeNumberArgumentTests {
    @Test(arguments: [
        (["set", "maxItems", "-1"], "invalid value '-1' for 'maxItems' (VALUE): must be 1…100"),
        (["set", "maxItems", "-5", "blueText", "on"], "invalid value '-5' for 'maxItems' (VALUE): must be 1…100"),
        (["set", "--match", "max*", "-3"], "VALUE '-3' fits none of the 1 flag(s) and setting(s) matching 'max*'"),
        (["set", "maxItems", "7", "--for", "-1m"], "--for '-1m': expected a duration like 90s, 30m"),
        (["set", "maxItems", "7", "--until", "-1"], "--until '-1': expected an ISO 8601 time"),
        (["list", "--lock-timeout", "-1"], "--lock-timeout needs a number of seconds, 0 or more"),
        (["serve", "--port", "-1"], "--port: -1 is not a port (0–65535)"),
        (["history", "--since", "-1h"], "--since '-1h': expected a duration like 90s, 30m"),
        (["set", "blueText", "on", "--bogus"], "unknown option '--bogus'"),
        (["set", "blueText", "on", "-x"], "unknown option '-x'"),
    ])
    func negativeNumbersAreValuesAndValidated(arguments: [String], message: String) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("flagstaff: error: " + message), "\(result)")
        #expect(!result.standardError.contains("missing"), "\(result)")
        #expect(sandbox.storeBytes() == nil)
    }

    @Test func aNegativeNumberInRangeIsSetAndWordsAfterTheTerminatorAreValues() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write(
            "m.json",
            #"{"name":"M","flags":[],"settings":[{"key":"offset","type":"integer","default":0,"range":[-10,10]},"#
                + #"{"key":"label","type":"string","default":""}]}"#)
        let set = try await sandbox.runWithStore(["set", "offset", "-3", "--manifest", manifest])
        #expect(set.status == 0, "\(set)")
        let text = try await sandbox.run(
            ["set", "--manifest", manifest, "--store", sandbox.storePath, "label", "--", "-hi"])
        #expect(text.status == 0, "\(text)")
        #expect(try sandbox.storedJSON() == ["offset": "-3", "label": #""-hi""#])
    }
}
