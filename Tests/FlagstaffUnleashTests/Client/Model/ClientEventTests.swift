import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite("Unleash client: events")
struct ClientEventTests {
    @Test("ready once, update only with changed names, through closures and the AsyncStream")
    func readyAndUpdate() async throws {
        let version = Locked(1)
        let server = try LoopbackHTTPServer.started { _ in
            switch version.current {
            case 1: return FrontendBody.response([FrontendBody.toggle("a"), FrontendBody.toggle("b")])
            case 2: return FrontendBody.response([FrontendBody.toggle("a"), FrontendBody.toggle("b")])
            default: return FrontendBody.response([FrontendBody.toggle("a", enabled: false), FrontendBody.toggle("c")])
            }
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"))
        let recorder = EventRecorder(client)
        let stream = client.events
        let collected = Task { () -> [UnleashClientEvent] in
            var seen: [UnleashClientEvent] = []
            for await event in stream {
                seen.append(event)
                if seen.count == 3 { break }
            }
            return seen
        }
        await client.start()
        version.withLock { $0 = 2 }
        await client.fetchToggles()
        version.withLock { $0 = 3 }
        await client.fetchToggles()
        client.stop()

        let expected: [UnleashClientEvent] = [
            .ready, .update(changed: ["a", "b"]), .update(changed: ["a", "b", "c"]),
        ]
        #expect(recorder.all == expected)
        #expect(await collected.value == expected)
    }

    @Test("impressions for toggles with impressionData, from isEnabled and variant")
    func impressions() async throws {
        let server = try LoopbackHTTPServer.started { _ in
            FrontendBody.response([
                FrontendBody.toggle(
                    "watched", variant: ["name": "red", "enabled": true, "feature_enabled": true],
                    impressionData: true),
                FrontendBody.toggle("quiet"),
            ])
        }
        defer { server.stop() }
        let context = UnleashContext(userId: "u1", sessionId: "s-1")
        let client = UnleashClient.testing(url: server.url("/proxy"), context: context)
        await client.start()
        client.stop()
        let recorder = EventRecorder(client)
        #expect(client.isEnabled("watched"))
        #expect(client.isEnabled("quiet"))
        #expect(client.variant("watched").name == "red")
        #expect(
            recorder.impressions == [
                UnleashImpression(
                    kind: .isEnabled, featureName: "watched", enabled: true, variant: nil, context: context),
                UnleashImpression(
                    kind: .getVariant, featureName: "watched", enabled: true, variant: "red", context: context),
            ])
    }

    @Test("a cancelled subscription gets no more events")
    func cancel() async throws {
        let server = try LoopbackHTTPServer.started { _ in .status(503) }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"))
        let count = Locked(0)
        let subscription = client.onEvent { _ in count.withLock { $0 += 1 } }
        await client.start()
        #expect(count.current == 1)
        subscription.cancel()
        await client.fetchToggles()
        client.stop()
        #expect(count.current == 1)
    }

    @Test("variants: name, enabled, feature_enabled and payload; unknown toggles are disabled")
    func variants() async throws {
        let server = try LoopbackHTTPServer.started { _ in
            .json(
                #"{"toggles":[{"name":"v","enabled":true,"impressionData":false,"variant":{"name":"big","enabled":true,"feature_enabled":true,"payload":{"type":"number","value":"42"}}},{"name":"plain","enabled":true}]}"#
            )
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"))
        await client.start()
        client.stop()
        #expect(
            client.variant("v")
                == UnleashVariant(
                    name: "big", enabled: true, featureEnabled: true,
                    payload: UnleashPayload(type: "number", value: "42")))
        #expect(client.variant("plain") == .disabled(featureEnabled: true))
        #expect(client.variant("missing") == .disabled(featureEnabled: false))
        #expect(!client.isEnabled("missing"))
    }
}
