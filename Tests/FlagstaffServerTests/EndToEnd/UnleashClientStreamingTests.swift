import Flagstaff
import FlagstaffServer
import FlagstaffTestSupport
import FlagstaffUnleash
import Foundation
import Testing

/// This package's `UnleashServerClient` in streaming mode against the real server, in process: a change in the
/// registry reaches the client's answers through `GET /api/client/streaming`, with no poll.
@Suite struct UnleashClientStreamingTests {
    @Test("a registry change reaches isEnabled and variant through the stream, without a poll; stop() closes it")
    func changesArriveWithoutPolling() async throws {
        try await offCooperativePool(timing: {
            let registry = try ServedFixtures.registry()
            let running = try await RunningServer(
                registry: registry, configuration: FlagServerConfiguration(keepAliveInterval: .seconds(1)))
            let client = try UnleashServerClient(
                url: running.url("/api"), apiKey: "any", appName: "checkout",
                // An hour between polls: only the stream can bring a change within this test.
                refreshInterval: .seconds(3600), disableMetrics: true, experimentalMode: .streaming)
            await client.start()
            #expect(client.isStreaming)
            #expect(!client.isEnabled("blueText"))
            #expect(client.variant("cardColor").payload?.value == "#f05138")

            try registry.setOverrideValues([
                "blueText": .set(.on), "cardColor": .set(OverrideValue(jsonObject: "#000000")),
            ])
            #expect(await eventually { client.isEnabled("blueText") })
            #expect(await eventually { client.variant("cardColor").payload?.value == "#000000" })
            #expect(client.isStreaming)
            #expect(running.server.streamClients.count == 1)

            client.stop()
            #expect(await eventually { running.server.streamClients.isEmpty })
            await running.stop()
        })
    }
}
