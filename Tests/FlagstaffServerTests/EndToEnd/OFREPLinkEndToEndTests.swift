import Flagstaff
import FlagstaffRemote
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Testing

/// This package's OFREP provider linked to the real server, in process (issue 27 item 3): an app's registry follows
/// a change QA made on the served registry through the event stream (never the server's own defaults, issue 35),
/// says where the value came from, and gets its own values back when unlinked.
@Suite struct OFREPLinkEndToEndTests {
    @Test("an app's registry follows the served one through OFREP's event stream; unlinking restores its own values")
    func linkFollowsTheServer() async throws {
        try await offCooperativePool(timing: {
            let served = try ServedFixtures.registry()
            let running = try await RunningServer(registry: served)
            let (seven, twenty, fiftyFive) = (
                try OverrideValue(json: "7"), try OverrideValue(json: "20"), try OverrideValue(json: "55")
            )
            let app = try ServedFixtures.registry()
            try app.setOverrideValues(["maxItems": .set(seven)])
            // No poll interval: only the event stream can bring the change.
            let provider = OFREPProvider(options: OFREPOptions(baseURL: running.url("")))
            let link = provider.link(to: app)
            // The server's own default is not QA's decision: the app keeps its value (issue 35).
            #expect(await eventually { provider.flags["maxItems"]?.value == twenty })
            #expect(app.feature(forKey: "maxItems")?.currentValue == seven)
            #expect(app.feature(forKey: "maxItems")?.linkedValue == nil)

            try served.setOverrideValues(["blueText": .set(.on), "maxItems": .set(fiftyFive)])
            #expect(await eventually { app.feature(forKey: "blueText")?.currentValue == .on })
            #expect(await eventually { app.feature(forKey: "maxItems")?.currentValue == fiftyFive })
            let origin = "http://127.0.0.1:\(running.port)"
            #expect(app.feature(forKey: "blueText")?.explanation.source == .link(server: origin))
            #expect(app.feature(forKey: "maxItems")?.linkedValue == fiftyFive)
            #expect(
                await eventually { running.server.streamClients.count == 1 }, "the provider follows the event stream")

            link.unlink()
            provider.stop()
            #expect(app.feature(forKey: "blueText")?.currentValue == .off)
            #expect(app.feature(forKey: "maxItems")?.currentValue == seven, "the app's override")
            await running.stop()
        })
    }
}
