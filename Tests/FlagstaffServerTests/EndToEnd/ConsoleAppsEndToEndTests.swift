import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `flagstaff console --serve` in tmux, `A`: the connected apps appear as they connect and fetch, say whether they
/// have the console's values, and a stream leaves the list when it closes (issue 27 item 5).
@Suite struct ConsoleAppsEndToEndTests {
    @Test("A lists a streaming SDK and a poller, says which is behind after a change, and drops the closed stream")
    func appsComeAndGo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "console-apps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let executable = try BuildProducts.executable(named: "flagstaff")
        let store = directory.appendingPathComponent("demo.json").path
        let session = try TmuxSession(
            command: "'\(executable.path)' console --demo --store '\(store)' --serve 127.0.0.1:0", width: 120,
            height: 30,
            environment: ["HOME": directory.path])
        defer { session.kill() }
        let header = try await session.waitFor(text: "no SDK yet", timeout: 30).text(line: 0)
        let portText = try #require(header.range(of: "127.0.0.1:")).upperBound
        let port = try #require(Int(header[portText...].prefix { $0.isNumber }))
        try await session.waitFor("the footer's A") { $0.contains("A apps") }
        try session.sendKeys("A")
        try await session.waitFor(text: "No app has connected yet")

        // An Unleash SDK in streaming mode, on a thread of its own (the client blocks), reading until released.
        let release = AnnotatedMutex(false)
        let stream = Task {
            try await offCooperativePool { () throws -> Int in
                let client = try SSETestClient(
                    port: port, path: "/api/client/streaming",
                    headers: ["unleash-appname": "e2e-phone", "unleash-sdk": "unleash-python-sdk:6.9.1"])
                var events = 0
                while !release.withLock({ $0 }) && !client.closed {
                    events += client.next(1, timeout: .milliseconds(100)).count
                }
                // The console counts the stream up to date once it has sent the change; the event may still be on
                // its way here: read until it has come.
                _ = blockingEventually(timeout: .seconds(10)) {
                    events += client.next(1, timeout: .milliseconds(100)).count
                    return events >= 2 || client.closed
                }
                client.connection.close()
                return events
            }
        }
        defer { release.withLock { $0 = true } }
        // A poller: one fetch of the frontend API.
        let fetched = try await HTTPExchange.send(
            try #require(URL(string: "http://127.0.0.1:\(port)/api/frontend?appName=e2e-web")))
        #expect(fetched.status == 200)

        var screen = try await session.waitFor("both apps, up to date") { screen in
            screen.contains("e2e-phone  unleash-python-sdk:6.9.1") && screen.contains("e2e-web")
                && screen.contains("2 apps · 1 streaming · 1 polling · all up to date")
        }
        #expect(screen.contains("streaming (Unleash) · 127.0.0.1:"), "\(screen.text)")
        #expect(screen.contains("polling · 127.0.0.1:"), "\(screen.text)")

        // A change in the console: the stream gets it at once, the poller is behind until it fetches again.
        try session.sendKeys("Escape")
        try await session.waitFor("the list") { !$0.contains("Connected apps") }
        try session.sendKeys("o")
        try session.sendKeys("A")
        // Both are behind for the moment between the change and the stream's event: wait for the event.
        screen = try await session.waitFor("the poller behind, the stream up to date") {
            $0.contains("behind by 1 change") && $0.contains("2 apps · 1 streaming · 1 polling · 1 behind")
        }
        #expect(screen.contains("streaming (Unleash) · 127.0.0.1:"), "\(screen.text)")

        // The stream closes: it leaves the list; the poller stays, with its last-seen time.
        release.withLock { $0 = true }
        let events = try await stream.value
        #expect(events >= 2, "the stream was sent the state and the change")
        screen = try await session.waitFor("the stream gone") { !$0.contains("e2e-phone") }
        #expect(screen.contains("1 app · 0 streaming · 1 polling · 1 behind"), "\(screen.text)")
        try session.sendKeys("Escape", "q")
    }
}
