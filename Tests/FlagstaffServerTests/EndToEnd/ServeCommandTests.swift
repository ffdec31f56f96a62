import Flagstaff
import FlagstaffServer
import Foundation
import Testing

@testable import FlagstaffCLI

/// `flagstaff serve` and `console --serve` arguments, in process.
@Suite struct ServeCommandTests {
    /// Runs a command line with its own streams: the status and standard error.
    private static func run(_ arguments: [String], environment: [String: String] = [:]) -> (Int32, String) {
        let errors = AnnotatedMutex("")
        let context = CommandContext(
            writeOutput: { _ in }, writeError: { text in errors.withLock { $0 += text } }, readInput: { Data() },
            environment: environment)
        let status = CommandContext.$current.withValue(context) { FlagstaffCommand.execute(arguments) }
        return (status, errors.withLock { $0 })
    }

    @Test("serving beyond loopback without a token is refused before anything is opened, naming --host and --token")
    func nonLoopbackNeedsToken() {
        let (status, error) = Self.run(["serve", "--host", "0.0.0.0", "--store", "/nonexistent-dir/s.json"])
        #expect(status == 2)
        #expect(error.contains("--host 0.0.0.0") && error.contains("--token"), "\(error)")
    }

    @Test("bad --port and empty --token are usage errors")
    func badArguments() {
        let (port, portError) = Self.run(["serve", "--port", "70000"])
        #expect(port == 2 && portError.contains("--port"))
        let (token, tokenError) = Self.run(["serve", "--token", ""])
        #expect(token == 2 && tokenError.contains("--token"))
    }

    @Test(
        "a token no client could send is a usage error that says why, before anything is opened",
        arguments: [
            ("   ", "blank"), ("\t", "blank"), (" qa-secret", "white space"), ("qa-secret\n", "white space"),
            ("qa\u{7}secret", "control character"),
        ])
    func unusableTokens(token: String, reason: String) {
        // A store that cannot be opened: were the token accepted, the command would fail there (status 1).
        let store = ["--store", "/nonexistent-dir/s.json"]
        let (status, error) = Self.run(["serve", "--token", token] + store)
        #expect(status == 2 && error.contains("--token") && error.contains(reason), "\(status): \(error)")
        let (fromEnvironment, environmentError) = Self.run(
            ["serve"] + store, environment: [ServeCommand.tokenVariable: token])
        #expect(fromEnvironment == 2, "\(environmentError)")
        #expect(environmentError.contains("$FLAGSTAFF_SERVE_TOKEN") && environmentError.contains(reason))
        // The token itself is not repeated: it is a secret.
        #expect(!error.contains("qa-secret") && !environmentError.contains("qa-secret"))
    }

    @Test("tokens a client can send are accepted as they are")
    func usableTokens() {
        for token in ["qa-secret", "a b", "Bearer-less:token=1", "ключ"] {
            #expect(FlagServerConfiguration.tokenProblem(token) == nil, "\(token)")
        }
    }

    @Test(
        "console --serve takes [HOST:]PORT",
        arguments: [
            ("4242", "127.0.0.1", 4242), ("0.0.0.0:80", "0.0.0.0", 80), ("[::1]:0", "::1", 0),
            ("localhost:4242", "localhost", 4242),
        ])
    func consoleServeAddress(text: String, host: String, port: Int) throws {
        let address = try ServeConsoleSession.address(text)
        #expect(address.host == host && address.port == port)
    }

    @Test("console --serve refuses what is not [HOST:]PORT", arguments: ["", "abc", ":4242", "host:", "1:99999"])
    func consoleServeBadAddress(text: String) {
        #expect(throws: CLIFailure.self) { try ServeConsoleSession.address(text) }
    }
}
