import Flagstaff
import FlagstaffRemote
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

/// ``RemoteConfig``'s own realtime loop, on a provider whose stream connections the test scripts (the Firebase
/// stream itself is tested against a loopback stand-in in FlagstaffFirebaseTests).
@Suite("RemoteConfig realtime loop")
struct RealtimeLoopTests {
    /// A streaming provider: fetches answer as `fetches` is told; each connection replays the next scripted list
    /// of events and ends, and once the script is used up a connection stays open until the loop closes it.
    final class ScriptedStream: RemoteConfigRealtimeProvider {
        let name = "scripted-stream"
        let fetches = ScriptedProvider()
        let isRealtimeEnabled = true
        private struct State {
            var connections: [[RemoteConfigStreamEvent]]
            var requests: [RemoteConfigStreamRequest] = []
            var closed = 0
        }
        private let state: AnnotatedMutex<State>

        init(_ connections: [[RemoteConfigStreamEvent]]) {
            state = AnnotatedMutex(State(connections: connections))
        }

        /// The request of every connection opened so far.
        var requests: [RemoteConfigStreamRequest] { state.withLock { $0.requests } }
        /// How many connections have ended.
        var closed: Int { state.withLock { $0.closed } }

        func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError)
            -> RemoteConfigFetchResponse
        {
            try await fetches.fetch(request)
        }

        func openInvalidationStream(_ request: RemoteConfigStreamRequest) -> AsyncStream<RemoteConfigStreamEvent> {
            let events = state.withLock { current -> [RemoteConfigStreamEvent]? in
                current.requests.append(request)
                return current.connections.isEmpty ? nil : current.connections.removeFirst()
            }
            let (stream, continuation) = AsyncStream.makeStream(of: RemoteConfigStreamEvent.self)
            continuation.onTermination = { _ in self.state.withLock { $0.closed += 1 } }
            for event in events ?? [] { continuation.yield(event) }
            if events != nil { continuation.finish() }
            return stream
        }
    }

    /// A config on `provider` with no fetch interval and no random pauses, its waits on `clock`.
    static func config(_ provider: ScriptedStream, clock: ManualClock) -> RemoteConfig {
        RemoteConfig(
            provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0),
            environment: .manual(clock, random: 0))
    }

    @Test("an announced newer template is fetched and the listeners told; removing the last listener closes the stream")
    func announcedTemplateIsFetched() async throws {
        let provider = ScriptedStream([[.connected, .templateVersion(5)]])
        provider.fetches.answer(entries: ["a": "1"], version: "5", eTag: "e5")
        let config = Self.config(provider, clock: ManualClock())
        let updates = AnnotatedMutex<[RemoteConfigUpdate]>([])
        let registration = config.addOnConfigUpdateListener { update, error in
            #expect(error == nil)
            if let update { updates.withLock { $0.append(update) } }
        }
        #expect(config.isRealtimeRunning)
        #expect(await eventually { updates.withLock { $0 } == [RemoteConfigUpdate(updatedKeys: ["a"])] })
        #expect(provider.fetches.requests.count == 1)
        // The first connection ended after it was accepted: the next one opens at once, from the fetched template.
        #expect(await eventually { provider.requests.count == 2 })
        #expect(
            provider.requests == [
                RemoteConfigStreamRequest(),
                RemoteConfigStreamRequest(lastKnownTemplateVersion: "5", eTag: "e5"),
            ])
        registration.remove()
        #expect(!config.isRealtimeRunning)
        #expect(await eventually { provider.closed == 2 }, "the open connection is closed")
        #expect(provider.requests.count == 2)
    }

    @Test("an announced template no newer than the fetched one is not fetched again")
    func oldTemplateIsNotFetched() async throws {
        let provider = ScriptedStream([[.connected, .templateVersion(5)], [.connected, .templateVersion(5)]])
        provider.fetches.answer(entries: ["a": "1"], version: "5")
        let config = Self.config(provider, clock: ManualClock())
        let registration = config.addOnConfigUpdateListener { _, _ in }
        defer { registration.remove() }
        #expect(await eventually { provider.requests.count == 3 })
        #expect(provider.fetches.requests.count == 1)
    }

    @Test("the service turning realtime off ends the loop and tells the listeners why")
    func disabledEndsTheLoop() async throws {
        let provider = ScriptedStream([[.connected, .disabled]])
        let config = Self.config(provider, clock: ManualClock())
        let errors = AnnotatedMutex<[RemoteConfigError]>([])
        let registration = config.addOnConfigUpdateListener { _, error in
            if let error { errors.withLock { $0.append(error) } }
        }
        defer { registration.remove() }
        #expect(await eventually { !config.isRealtimeRunning })
        #expect(
            errors.withLock { $0 } == [
                .realtime("the service has turned realtime updates off for now; try again in a few minutes")
            ])
        #expect(provider.requests.count == 1)
        #expect(provider.fetches.requests.isEmpty)
    }
}
