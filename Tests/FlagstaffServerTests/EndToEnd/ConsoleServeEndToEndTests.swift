import FlagstaffTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `flagstaff console --serve` in tmux: the header names the connected SDKs and the detail pane the evaluation
/// counts their metrics reported; what the console changes is served.
@Suite struct ConsoleServeEndToEndTests {
    @Test("the console serves its registry, shows the SDK that posted metrics, and its changes reach the server")
    func consoleServes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "console-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let executable = try BuildProducts.executable(named: "flagstaff")
        let store = directory.appendingPathComponent("demo.json").path
        let session = try TmuxSession(
            command: "'\(executable.path)' console --demo --store '\(store)' --serve 127.0.0.1:0", width: 160,
            height: 30,
            environment: ["HOME": directory.path])
        defer { session.kill() }
        let screen = try await session.waitFor(text: "no SDK yet", timeout: 30)
        let header = screen.text(line: 0)
        let portText = try #require(header.range(of: "127.0.0.1:")).upperBound
        let port = try #require(Int(header[portText...].prefix { $0.isNumber }))
        let base = "http://127.0.0.1:\(port)"

        let metrics = try await HTTPExchange.send(
            try #require(URL(string: base + "/api/client/metrics")), method: "POST",
            body: Data(
                #"{"appName":"ios-app","bucket":{"start":"a","stop":"b","toggles":{"blueText":{"yes":3,"no":1}}}}"#.utf8
            ))
        #expect(metrics.status == 202)
        // The console repaints every second while a remote source is attached; blueText is the first row.
        let shown = try await session.waitFor(text: "1 SDK: ios-app", timeout: 10)
        #expect(shown.contains("SDK metrics: 4 evaluations (3 on, 1 off)"), "\(shown)")

        let before = try await HTTPExchange.send(
            try #require(URL(string: base + "/ofrep/v1/evaluate/flags/blueText")), method: "POST", body: Data("{}".utf8)
        )
        #expect(before.text.contains(#""value":false"#))
        try session.sendKeys("o")  // blueText on
        // Polls for the change to arrive (waiting for something to happen, not proving that nothing does).
        let url = try #require(URL(string: base + "/ofrep/v1/evaluate/flags/blueText"))
        let served = try await poll(every: .milliseconds(50), timeout: .seconds(10)) { () async throws -> Bool? in
            let reply = try await HTTPExchange.send(url, method: "POST", body: Data("{}".utf8))
            return reply.text.contains(#""value":true"#) ? true : nil
        }
        #expect(served == true, "the console's change was not served")
        try session.sendKeys("q")
    }
}
