import Foundation
import Testing

/// `console --serve` checks its address before anything else: a bad one is a usage error (status 2) even where
/// the console could not open (no terminal), and the store is not touched.
@Suite("console --serve arguments")
struct ConsoleServeArgumentTests {
    @Test(arguments: [["--serve=-1"], ["--serve", "-1"], ["--serve=x:99999"], ["--serve=:80"], ["--serve=host:port"]])
    func aBadAddressIsAUsageErrorBeforeTheTerminalCheck(_ arguments: [String]) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runProcess(["console"] + arguments + ["--store", sandbox.storePath])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("--serve: expected [HOST:]PORT"), "\(result)")
        #expect(!result.standardError.contains("terminal"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    }
}
