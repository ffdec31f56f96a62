import Flagstaff
import FlagstaffTestSupport
import Foundation
import NIOCore
import Testing

@testable import FlagstaffServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Clients that stop reading, beside good ones, against the real server on 127.0.0.1 (issue 34, items 7 and 8).
/// Bounded: at most 40 stalled connections, each with a 16 KB receive buffer, and every wait has a deadline.
@Suite(
    .enabled(
        if: StalledClientServerTests.inOwnProcess, Comment(rawValue: StalledClientServerTests.reason)))
struct StalledClientTests {
    /// A registry of `count` flags, every other one on.
    static func registry(_ count: Int) throws -> AnyFeatureRegistry {
        try AnyFeatureRegistry(
            manifest: RegistryManifest(
                name: "Large", flags: (0..<count).map { RegistryManifest.Flag(key: "flag\($0)", default: $0 % 2 == 0) }),
            options: RegistryOptions(storeWatchInterval: nil))
    }

    /// Connects with a small receive buffer, sends `request`, and reads nothing: the socket.
    static func stalled(_ port: Int, _ request: String) -> Int32? {
        guard let socket = LoopbackSocket.connect(port: port, receiveTimeout: 10) else { return nil }
        var size: Int32 = 16 << 10
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let sent = request.withCString { send(socket, $0, strlen($0), 0) }
        guard sent > 0 else {
            close(socket)
            return nil
        }
        return socket
    }

    /// Reads a stalled socket to its end: whether the answer ended with the last chunk (`true`: it was sent whole)
    /// or the server closed or reset the connection before (`false`); `nil` when the connection stayed open and
    /// quiet for the receive timeout.
    private static func sentWhole(_ socket: Int32) -> Bool? {
        defer { close(socket) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var last: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                last = Array((last + buffer[0..<count]).suffix(5))
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return last.elementsEqual("0\r\n\r\n".utf8) ? true : nil
            }
            return last.elementsEqual("0\r\n\r\n".utf8)
        }
    }

    @Test(
        "a client that never reads a large body is dropped after the write timeout; a good client is served meanwhile")
    func stalledReadersAreDropped() async throws {
        // 30,000 flags: above the kept-body limit, so the body is rendered while sent, and at about 6 MB more than
        // the system's socket buffers take (about 4 MB on loopback), so the server itself holds some of it.
        let running = try await RunningServer(
            registry: try Self.registry(30_000), configuration: FlagServerConfiguration(writeTimeout: .seconds(1)))
        defer { Task { await running.stop() } }
        let port = running.port
        let count = 20
        let sockets = try await offCooperativePool {
            (0..<count).compactMap { _ in Self.stalled(port, "GET /api/client/features HTTP/1.1\r\nHost: t\r\n\r\n") }
        }
        #expect(sockets.count == count)
        // A good client is served beside them (how fast is measured by `flagstaff-bench serve-stalled`, not here).
        let good = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags"), method: "POST", body: Data("{}".utf8))
        #expect(good.status == 200 && good.text.contains("flag29999"))
        let dropped = await eventually(timeout: .seconds(30)) { running.server.closedForWriteTimeout.value >= count }
        #expect(dropped, "\(running.server.closedForWriteTimeout.value) of \(count) stalled connections closed")
        // Read now, each stalled answer ends before its last chunk: the server reset the connection.
        let whole = try await offCooperativePool { sockets.map(Self.sentWhole) }
        #expect(whole.allSatisfy { $0 == false }, "\(whole) (false: cut; true: sent whole; nil: still open)")
    }

    @Test("stalled streams beside reading ones: changes of every member reach each reader, the stalled are dropped")
    func stalledStreamsAndWholeStateChanges() async throws {
        // 10,000 flags: each frame is the whole state (about 2 MB), four of them more than the socket buffers take.
        let flags = 10_000
        let registry = try Self.registry(flags)
        let running = try await RunningServer(
            registry: registry, configuration: FlagServerConfiguration(writeTimeout: .seconds(1)))
        defer { Task { await running.stop() } }
        let port = running.port
        let server = running.server
        let stalledCount = 40
        let readerCount = 5
        let keys = (0..<flags).map { "flag\($0)" }
        // Each reader reads on a thread of its own, as a client does: a reader the test left unread while it read
        // another would be a stalled client too (its frames wait longer than the write timeout).
        let updates = AnnotatedMutex([Int?](repeating: nil, count: readerCount))
        let (received, open) = try await offCooperativePool { () -> ([Int], Int) in
            let stalled = (0..<stalledCount).compactMap { _ in
                Self.stalled(port, "GET /api/client/streaming HTTP/1.1\r\nHost: t\r\n\r\n")
            }
            defer { for socket in stalled { close(socket) } }
            let done = DispatchGroup()
            for index in 0..<readerCount {
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    guard let reader = try? SSETestClient(port: port, path: "/api/client/streaming") else { return }
                    _ = reader.next(2, timeout: .seconds(60))
                    updates.withLock { $0[index] = 0 }
                    let deadline = ContinuousClock.now.advanced(by: .seconds(120))
                    var count = 0
                    while count < 3, ContinuousClock.now < deadline {
                        count +=
                            reader.next(1, timeout: .seconds(1)).filter {
                                $0.event == "unleash-updated" && $0.data.contains("\"hydration\"")
                            }.count
                        updates.withLock { $0[index] = count }
                    }
                }
            }
            _ = blockingEventually(timeout: .seconds(60)) { updates.withLock { !$0.contains(nil) } }
            // Three changes, each of every member: no delta events, the whole state each time.
            for change in 0..<3 {
                let value: OverrideValue = change % 2 == 0 ? .on : .off
                try registry.setOverrideValues(
                    Dictionary(uniqueKeysWithValues: keys.map { ($0, OverrideEdit.set(value)) }))
                _ = blockingEventually(timeout: .seconds(60)) {
                    updates.withLock { $0.allSatisfy { ($0 ?? 0) >= change + 1 } }
                }
            }
            _ = done.wait(timeout: .now() + 130)
            _ = blockingEventually(timeout: .seconds(60)) { server.streams.count == 0 }
            return (updates.withLock { $0.map { $0 ?? 0 } }, server.streams.count)
        }
        #expect(received == Array(repeating: 3, count: readerCount))
        #expect(open == 0, "streams still open")
        #expect(server.closedForWriteTimeout.value >= stalledCount)
    }

    @Test("a change's frame is rendered once and shared: streams in the same place get the same bytes")
    func framesAreShared() throws {
        let registry = try Self.registry(200)
        let live = LiveSnapshot(registry: registry)
        let feed = ChangeFeed(live: live, firstID: 1)
        let first = feed.latest
        try registry.setOverrideValues(
            Dictionary(uniqueKeysWithValues: (0..<200).map { ("flag\($0)", OverrideEdit.set(.on)) }))
        let whole = feed.refresh()
        #expect(whole.events == nil, "a change of most members has no delta events")
        try registry.setOverrideValues(["flag1": .set(.off)])
        let small = feed.refresh()
        #expect(small.events != nil)
        func storage(_ pieces: [ByteBuffer]) -> [UnsafeRawPointer?] {
            pieces.map { $0.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) } }
        }
        // Two streams one change behind, at a change of every member: the whole state, shared.
        let behind = try #require(feed.revisions(after: first.id))
        let a = StreamBodies.unleashFrames(event: "unleash-updated", known: first.id, missed: behind, latest: small)
        let b = StreamBodies.unleashFrames(event: "unleash-updated", known: first.id, missed: behind, latest: small)
        #expect(storage(a) == storage(b) && !a.isEmpty)
        #expect(String(buffer: a[0]).contains("\"hydration\""))
        // Two new streams: the whole state as `unleash-connected`, shared.
        let c = StreamBodies.unleashFrames(event: "unleash-connected", known: nil, missed: nil, latest: small)
        let d = StreamBodies.unleashFrames(event: "unleash-connected", known: nil, missed: nil, latest: small)
        #expect(storage(c) == storage(d))
        // Two streams one small change behind: its delta events, shared.
        let deltaMissed = try #require(feed.revisions(after: whole.id))
        let e = StreamBodies.unleashFrames(
            event: "unleash-updated", known: whole.id, missed: deltaMissed, latest: small)
        let f = StreamBodies.unleashFrames(
            event: "unleash-updated", known: whole.id, missed: deltaMissed, latest: small)
        #expect(storage(e) == storage(f))
        #expect(String(buffer: e[0]).contains("feature-updated") && !String(buffer: e[0]).contains("hydration"))
    }
}
