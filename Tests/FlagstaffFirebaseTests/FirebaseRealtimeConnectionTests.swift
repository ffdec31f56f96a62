import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

/// Which connection the realtime stream rides (docs/performance.md, "Idle event streams"): never one that
/// FoundationNetworking had to connect for the stream itself.
@Suite("Firebase realtime: the stream's connection")
struct FirebaseRealtimeConnectionTests {
    @Test("the stream request arrives on a connection that already carried the transport's warm-up request")
    func streamRidesAWarmConnection() async throws {
        let server = try FakeFirebaseServer()
        let stream = try RealtimeStandIn()
        let clock = ManualClock()
        let config = FirebaseRealtimeTests.config(server, stream: stream, clock: clock)
        await config.fetchAndActivate()
        let registration = config.addOnConfigUpdateListener { _, _ in }
        defer { registration.remove() }
        #expect(await eventually(timeout: FirebaseRealtimeTests.patience) { stream.openStreamCount == 1 })
        let arrivals = stream.arrivals
        #expect(arrivals.map(\.method) == ["OPTIONS", "POST"])
        #expect(arrivals.map(\.connection) == [1, 1], "the stream came over the warm-up's connection")
        #expect(stream.connectionCount == 1)
    }
}
