import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite("Unleash client: request shape and headers")
struct ClientRequestShapeTests {
    @Test("GET {url}?{context} with the fixed query order and the SDK headers")
    func requestShape() async throws {
        let server = try LoopbackHTTPServer.started { _ in FrontendBody.response([FrontendBody.toggle("a")]) }
        defer { server.stop() }
        let context = UnleashContext(
            userId: "user 1", sessionId: "s-9", remoteAddress: "10.0.0.7",
            properties: ["zone": "eu/west", "beta": "yes&more"])
        let client = UnleashClient.testing(url: server.url("/api/frontend"), context: context)
        await client.start()
        defer { client.stop() }

        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/api/frontend")
        #expect(
            request.rawQuery == "userId=user%201&sessionId=s-9&remoteAddress=10.0.0.7&appName=moments"
                + "&environment=production&properties%5Bbeta%5D=yes%26more&properties%5Bzone%5D=eu%2Fwest")
        #expect(request.query["properties[zone]"] == "eu/west")
        #expect(request.headers["Authorization"] == "client-key-123")
        #expect(request.headers["unleash-appname"] == "moments")
        #expect(request.headers["unleash-sdk"] == "flagstaff:\(UnleashRequestHeaders.sdkVersion)")
        let connection = try #require(request.headers["unleash-connection-id"])
        #expect(UUID(uuidString: connection) != nil)
        #expect(request.headers["If-None-Match"] == nil)
        #expect(client.isEnabled("a"))
    }

    @Test("the connection id is stable across requests and differs between clients")
    func connectionID() async throws {
        let server = try LoopbackHTTPServer.started { _ in FrontendBody.response([]) }
        defer { server.stop() }
        let first = UnleashClient.testing(url: server.url("/proxy"))
        let second = UnleashClient.testing(url: server.url("/proxy"))
        await first.start()
        await first.fetchToggles()
        await second.start()
        first.stop()
        second.stop()
        let ids = server.requests.map { $0.headers["unleash-connection-id"] ?? "" }
        #expect(ids.count == 3)
        #expect(ids[0] == ids[1])
        #expect(ids[0] != ids[2])
    }

    @Test("custom headers are sent but never replace reserved fields; the provider is read on every request")
    func customHeaders() async throws {
        let server = try LoopbackHTTPServer.started { _ in FrontendBody.response([]) }
        defer { server.stop() }
        let calls = Locked(0)
        let client = UnleashClient.testing(
            url: server.url("/proxy"),
            customHeaders: [
                "X-Team": "growth", "Authorization": "stolen", "unleash-appname": "evil",
                "Content-Type": "text/evil", "X-Bad": "a\r\nInjected: 1",
            ],
            customHeadersProvider: {
                let call = calls.withLock {
                    $0 += 1
                    return $0
                }
                return [
                    "X-Token": "token-\(call)", "If-None-Match": "forged", "UNLEASH-SDK": "other:1",
                    "X-Team": "platform",
                ]
            })
        await client.start()
        await client.fetchToggles()
        client.stop()

        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].headers["X-Token"] == "token-1")
        #expect(requests[1].headers["X-Token"] == "token-2")
        for request in requests {
            #expect(request.headers["X-Team"] == "platform")
            #expect(request.headers["Authorization"] == "client-key-123")
            #expect(request.headers.values(for: "Authorization").count == 1)
            #expect(request.headers["unleash-appname"] == "moments")
            #expect(request.headers["unleash-sdk"] == UnleashRequestHeaders.sdkIdentifier)
            #expect(request.headers["Content-Type"] == nil)
            #expect(request.headers["If-None-Match"] != "forged")
            #expect(request.headers["X-Bad"] == nil)
            #expect(request.headers["Injected"] == nil)
        }
    }

    @Test(
        "reserved header names",
        arguments: [
            ("Authorization", true), ("content-type", true), ("If-None-Match", true), ("unleash-anything", true),
            ("Unleash-AppName", true), ("X-Unleash-Thing", false), ("Accept-Language", false),
        ])
    func reserved(name: String, expected: Bool) {
        #expect(UnleashRequestHeaders.isReserved(name) == expected)
    }

    @Test("the query leaves out empty fields and context appName/environment win")
    func queryOverrides() {
        let context = UnleashContext(userId: "", environment: "staging", appName: "web", properties: ["k": ""])
        let query = UnleashFrontendQuery.string(context: context, appName: "moments", environment: "production")
        #expect(query == "appName=web&environment=staging")
    }
}
