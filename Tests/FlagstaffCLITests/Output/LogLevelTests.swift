import Foundation
import Testing

@testable import FlagstaffCLI

/// `FLAGSTAFF_LOG_LEVEL`: a level by name, and a warning naming the accepted values for anything else.
@Suite struct LogLevelTests {
    @Test func levelsAreReadInAnyCaseAndAnUnknownOneIsNamed() {
        #expect(CLILogHandler.level(environment: [:]) == (.error, nil))
        #expect(CLILogHandler.level(environment: ["FLAGSTAFF_LOG_LEVEL": ""]) == (.error, nil))
        #expect(CLILogHandler.level(environment: ["FLAGSTAFF_LOG_LEVEL": "Debug"]) == (.debug, nil))
        let (level, warning) = CLILogHandler.level(environment: ["FLAGSTAFF_LOG_LEVEL": "bogus"])
        #expect(level == .error)
        #expect(
            warning
                == "FLAGSTAFF_LOG_LEVEL='bogus' is not a log level (expected one of: trace, debug, info, notice, warning, error, critical); using error"
        )
    }

    @Test func theBuiltBinaryWarnsAndRuns() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runProcess(
            ["get", "blueText", "--store", sandbox.storePath], environment: ["FLAGSTAFF_LOG_LEVEL": "bogus"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.standardError.hasPrefix(
                "flagstaff: warning: FLAGSTAFF_LOG_LEVEL='bogus' is not a log level (expected one of: trace"),
            "\(result)")
    }
}
