import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The write timeout judges a client by what it took (the bytes its side acknowledged), not by what the system
/// buffered for it (issue 34, item 7), against the real server on 127.0.0.1: each client asks for a 16 KB receive
/// buffer, and every wait has a deadline.
@Suite(
    .enabled(
        if: StalledClientServerTests.inOwnProcess, Comment(rawValue: StalledClientServerTests.reason)))
struct WriteTimeoutTests {
    private static let request = "GET /api/client/features HTTP/1.1\r\nHost: t\r\n\r\n"
    /// The write timeout of the tests' servers.
    private static let timeout = Duration.seconds(2)

    /// A server of 30,000 flags (an answer of about 6 MB, more than the system's buffers take for a connection, so the
    /// server's own buffer fills while a client reads at its pace), with the idle timeout far off: only the write
    /// timeout may close a connection.
    private static func server() async throws -> RunningServer {
        try await RunningServer(
            registry: try StalledClientTests.registry(30_000),
            configuration: FlagServerConfiguration(idleTimeout: .seconds(120), writeTimeout: timeout))
    }

    @Test("a client that stops reading once the system holds the rest of its answer is reset after the write timeout")
    func stoppedReaderIsReset() async throws {
        let running = try await Self.server()
        defer { Task { await running.stop() } }
        let port = running.port
        let size = try #require(try await offCooperativePool { Self.answerSize(port) })
        // Beside it, clients that never read, reset meanwhile (their buffers freed while the reader waits).
        let stalled = try await offCooperativePool {
            (0..<5).compactMap { _ in StalledClientTests.stalled(port, Self.request) }
        }
        defer { for socket in stalled { close(socket) } }
        // Reads 64 KB every 20 ms (the server renders faster, so its buffer fills) until all but the last 256 KB have
        // come, then stops reading: the system's buffer takes the rest and the server has nothing more to write, but
        // the client has not taken it.
        let reset = try await offCooperativePool { () -> Duration? in
            guard let socket = StalledClientTests.stalled(port, Self.request) else { return nil }
            defer { close(socket) }
            guard Self.read(socket, upTo: size - (256 << 10), pause: 0.02) else { return nil }
            return Self.waitForReset(socket, timeout: Self.timeout + .seconds(4))
        }
        let after = try #require(reset, "not reset within the write timeout and 4 s after the client stopped reading")
        // Checked each quarter of the timeout: at most a quarter late, plus the delays of a busy machine.
        #expect(
            after >= Self.timeout - .milliseconds(100) && after < Self.timeout + .seconds(2), "reset after \(after)")
        let dropped = await eventually(timeout: .seconds(10)) { running.server.closedForWriteTimeout.value >= 6 }
        #expect(dropped, "\(running.server.closedForWriteTimeout.value) of 6 connections closed for the timeout")
    }

    @Test("a slow client that keeps reading is not cut by the write timeout, however slow")
    func slowSteadyReaderIsNotCut() async throws {
        // 16 KB every 200 ms (80 KB/s), read for five write timeouts of 2 s. Before, progress was what the system
        // accepted into its buffer for the connection, which it does once a third of that buffer is free (about
        // 1.3 MB on loopback): this client was cut after the first timeout.
        let running = try await Self.server()
        defer { Task { await running.stop() } }
        let port = running.port
        let readFor = Self.timeout * 5
        let kept = try await offCooperativePool { () -> Bool in
            guard let socket = StalledClientTests.stalled(port, Self.request) else { return false }
            defer { close(socket) }
            let deadline = ContinuousClock.now + readFor
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            while ContinuousClock.now < deadline {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return false }
                Thread.sleep(forTimeInterval: 0.2)
            }
            return true
        }
        #expect(kept, "the connection ended while the client read")
        #expect(running.server.closedForWriteTimeout.value == 0)
    }

    @Test("the platform layer says how many bytes the peer acknowledged, not how many the system accepted")
    func acknowledgedBytes() throws {
        // The accepted side sends, as the server's connections do (on Linux, a connecting side's count has one more,
        // for its SYN).
        let (client, accepted) = try #require(Self.connectedPair())
        defer {
            close(client)
            close(accepted)
        }
        _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK)
        // Up to 2 MB written, until the system takes no more, the peer reading nothing: most of it is not
        // acknowledged (the peer's receive buffer takes some).
        var written: UInt64 = 0
        let chunk = [UInt8](repeating: 7, count: 64 << 10)
        while written < 2 << 20 {
            let count = chunk.withUnsafeBytes { send(accepted, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            written += UInt64(count)
        }
        let stalled = try #require(Self.acknowledged(accepted, written: written))
        #expect(stalled < written, "\(stalled) of \(written) acknowledged by a peer that read nothing")
        // The peer reads everything: all of it is acknowledged, no more.
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var read: UInt64 = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while read < written, ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            read += UInt64(count)
        }
        #expect(read == written)
        let all = blockingEventually(timeout: .seconds(10)) { Self.acknowledged(accepted, written: written) == written }
        #expect(all, "\(Self.acknowledged(accepted, written: written) ?? 0) of \(written) acknowledged")
    }

    // MARK: - Helpers

    /// The bytes of the whole answer to ``request``, head and chunks, read at once by a client that keeps up.
    private static func answerSize(_ port: Int) -> Int? {
        guard let socket = LoopbackSocket.connect(port: port, receiveTimeout: 30) else { return nil }
        defer { close(socket) }
        guard request.withCString({ send(socket, $0, strlen($0), 0) }) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var size = 0
        var last: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            size += count
            last = Array((last + buffer[0..<count]).suffix(5))
            if last.elementsEqual("0\r\n\r\n".utf8) { return size }
        }
    }

    /// Reads up to `size` bytes, at most 64 KB at a time with a `pause` in seconds after each: whether they came.
    private static func read(_ socket: Int32, upTo size: Int, pause: TimeInterval) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var read = 0
        while read < size {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, min($0.count, size - read), 0) }
            guard count > 0 else { return false }
            read += count
            Thread.sleep(forTimeInterval: pause)
        }
        return true
    }

    /// How long after now the server reset the connection (the socket reports a hang-up or an error), reading
    /// nothing; `nil` when it did not within `timeout`.
    private static func waitForReset(_ socket: Int32, timeout: Duration) -> Duration? {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < timeout {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 10) > 0, descriptor.revents & Int16(POLLHUP | POLLERR) != 0 {
                return ContinuousClock.now - start
            }
            // Unread bytes keep the socket readable, so poll returns at once: look again shortly.
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// The bytes the peer of `socket` acknowledged, of `written` (``Platform/SentBytes``), or `nil`.
    private static func acknowledged(_ socket: Int32, written: UInt64) -> UInt64? {
        var reading = Platform.SentBytes.Reading()
        var length = socklen_t(MemoryLayout<Platform.SentBytes.Reading>.size)
        guard getsockopt(socket, Platform.SentBytes.level, Platform.SentBytes.name, &reading, &length) == 0 else {
            return nil
        }
        return Platform.SentBytes.acknowledged(reading, written: written)
    }

    /// Two connected TCP sockets on 127.0.0.1: the client's and the one the listener accepted.
    private static func connectedPair() -> (Int32, Int32)? {
        #if canImport(Darwin)
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard listener >= 0 else { return nil }
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound, let client = LoopbackSocket.connect(port: Int(UInt16(bigEndian: address.sin_port))) else {
            return nil
        }
        let accepted = accept(listener, nil, nil)
        guard accepted >= 0 else {
            close(client)
            return nil
        }
        return (client, accepted)
    }
}
