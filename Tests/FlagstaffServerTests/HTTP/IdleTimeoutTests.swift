import Flagstaff
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Slow or stalled clients: a connection that stays silent past the idle timeout is closed by the server.
@Suite struct IdleTimeoutTests {
    /// Connects to 127.0.0.1:`port`, sends `text`, and returns how long the server took to close the connection
    /// (reads block at most `limit`; `nil` if it was still open then).
    private static func secondsUntilClosed(port: Int, sending text: String, limit: Int) -> Double? {
        guard let descriptor = LoopbackSocket.connect(port: port, receiveTimeout: limit) else { return nil }
        defer { close(descriptor) }
        if !text.isEmpty { _ = text.withCString { send(descriptor, $0, strlen($0), 0) } }
        let start = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                let elapsed = start.duration(to: .now)
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return nil }
        }
    }

    @Test("a connection that sends nothing is closed after the idle timeout")
    func silentConnectionClosed() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(),
            configuration: FlagServerConfiguration(idleTimeout: .milliseconds(300)))
        defer { Task { await running.stop() } }
        let port = running.port
        // Off the cooperative pool: the blocking reads must not take a thread the server's handlers need.
        let seconds = try await offCooperativePool { Self.secondsUntilClosed(port: port, sending: "", limit: 10) }
        let closed = try #require(seconds, "the server kept a silent connection open for 10 s")
        #expect(closed >= 0.2)
    }

    @Test("a keep-alive connection that goes quiet after a request is closed after the idle timeout")
    func quietKeepAliveClosed() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(),
            configuration: FlagServerConfiguration(idleTimeout: .milliseconds(300)))
        defer { Task { await running.stop() } }
        let port = running.port
        let seconds = try await offCooperativePool {
            Self.secondsUntilClosed(port: port, sending: "GET /api/frontend HTTP/1.1\r\nHost: t\r\n\r\n", limit: 10)
        }
        #expect(seconds != nil, "the server kept a quiet keep-alive connection open for 10 s")
    }
}
