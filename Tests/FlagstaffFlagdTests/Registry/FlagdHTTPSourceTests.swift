import Flagstaff
import FlagstaffTestSupport
import Foundation
import Synchronization
import Testing

@testable import FlagstaffFlagd

/// Definitions fetched over HTTP as flagd's HTTP sync does (`ETag`, `If-None-Match`), against a loopback server.
@Suite("flagd: definitions fetched over HTTP")
struct FlagdHTTPSourceTests {
    /// What the server serves: the body and its `ETag`.
    final class Served: Sendable {
        let current = Mutex<(body: String, etag: String)>((FlagdSourceTests.json, "\"v1\""))
    }

    static func server(_ served: Served) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer.started { request in
            let (body, etag) = served.current.withLock { $0 }
            if request.headers["If-None-Match"] == etag { return LoopbackResponse(status: 304) }
            return .json(body, headers: ["ETag": etag])
        }
    }

    @Test("fetches, sends the ETag back, keeps the definitions on 304 and applies new ones")
    func conditionalFetch() async throws {
        let served = Served()
        let server = try Self.server(served)
        defer { server.stop() }
        let source = FlagdSource(url: server.url("/flags.json"))
        let registry = AnyFeatureRegistry(
            options: RegistryOptions(storeWatchInterval: nil, assertOnProblems: false, launchOverrides: .none))
        source.attach(to: registry)
        #expect(source.status.state == .neverFetched)
        #expect(registry.allFeatures.isEmpty)

        await source.refresh()
        #expect(source.status.state == .ok)
        let pageSize = try #require(registry.feature(forKey: "page-size") as? Setting<Int>)
        #expect(pageSize.value == 10)
        let changes = Mutex<[Set<String>]>([])
        let subscription = registry.onChange { change in changes.withLock { $0.append(change.keys) } }
        defer { subscription.cancel() }

        await source.refresh()
        #expect(server.requests.last?.headers["If-None-Match"] == "\"v1\"")
        #expect(changes.withLock { $0.isEmpty }, "304: nothing changed")

        let next = FlagdSourceTests.json.replacingOccurrences(
            of: #""defaultVariant": "small""#, with: #""defaultVariant": "big""#)
        served.current.withLock { $0 = (next, "\"v2\"") }
        await source.refresh()
        #expect(pageSize.value == 50)
        #expect(changes.withLock { $0 } == [["page-size"]])
        #expect(server.requests.count == 3)
    }

    @Test("a failed fetch keeps the definitions and says why; polling picks up a change")
    func failureAndPolling() async throws {
        let served = Served()
        let server = try Self.server(served)
        defer { server.stop() }
        let source = FlagdSource(url: server.url("/flags.json"))
        let registry = AnyFeatureRegistry(
            options: RegistryOptions(storeWatchInterval: nil, assertOnProblems: false, launchOverrides: .none))
        source.attach(to: registry)
        await source.refresh()
        let pageSize = try #require(registry.feature(forKey: "page-size") as? Setting<Int>)

        served.current.withLock { $0 = (#"{"flags": {"x": {}}}"#, "\"broken\"") }
        await source.refresh()
        guard case .failed(let message) = source.status.state else {
            Issue.record("status \(source.status.state)")
            return
        }
        #expect(message.contains("$.flags.x"), "\(message)")
        #expect(pageSize.value == 10)

        let next = FlagdSourceTests.json.replacingOccurrences(
            of: #""defaultVariant": "small""#, with: #""defaultVariant": "big""#)
        served.current.withLock { $0 = (next, "\"v2\"") }
        source.startWatching(every: .milliseconds(20))
        defer { source.stopWatching() }
        #expect(await eventually { pageSize.value == 50 })
        #expect(source.status.state == .ok)
    }
}
