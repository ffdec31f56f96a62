import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffServer

/// The open-file limit (issue 34, item 9): `flagstaff serve` raises its soft limit to the hard one, keeps the stream
/// limit below what the descriptors allow with room for polling, and says so; running out of descriptors is logged.
@Suite struct OpenFileLimitTests {
    @Test("the stream limit leaves room for polling within the open-file limit")
    func budget() {
        let common = DescriptorBudget(openFiles: 1_024, requested: 1_000)
        #expect(common.connections == 960 && common.polling == 240 && common.streams == 720)
        #expect(DescriptorBudget(openFiles: 20_000, requested: 1_000).streams == 1_000)
        #expect(DescriptorBudget(openFiles: 1_024, requested: 10).streams == 10)
        #expect(DescriptorBudget(openFiles: 100, requested: 1_000).streams == 20)
        #expect(DescriptorBudget(openFiles: 40, requested: 1_000).streams == 0)
        #expect(DescriptorBudget(openFiles: Int.max, requested: 5_000).streams == 5_000)
        #expect(DescriptorBudget(openFiles: 1_024, requested: 0).streams == 0)
    }

    /// An environment for `flagstaff serve` with a store of its own.
    private static func environment(_ directory: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FLAGSTAFF_") }
        environment["FLAGSTAFF_STORE"] = directory.appendingPathComponent("demo.json").path
        environment["FLAGSTAFF_DEMO"] = "1"  // the demo registry on this store (no app announced one)
        environment["HOME"] = directory.path
        return environment
    }

    /// Opens `count` OFREP event streams and returns the connections with the status each was answered.
    private static func openStreams(_ port: Int, _ count: Int) throws -> [(LoopbackHTTPRawConnection, String)] {
        try (0..<count).map { _ in
            let connection = try LoopbackHTTPRawConnection(port: UInt16(port))
            try connection.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = String(decoding: connection.receive(until: "\r\n\r\n", timeout: .seconds(10)), as: UTF8.self)
            return (connection, String(head.prefix(12)))
        }
    }

    @Test("soft and hard limit 200: streams are limited to 102, 30 pollers are answered beside them, EMFILE is logged")
    func lowHardLimit() async throws {
        let directory = TestDirectory.make("serve-files")
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try await ServeProcess(environment: Self.environment(directory), ulimit: "-n 200")
        defer { _ = serve.terminate() }
        #expect(serve.standardError.contains("--max-streams 1000 lowered to 102: the open-file limit is 200"))
        let port = serve.port
        let (statuses, polls, emfile) = try await offCooperativePool { () -> ([String], [Int], Bool) in
            let streams = try Self.openStreams(port, 103)
            let polls = try (0..<30).map { _ in try LoopbackHTTPRawConnection(port: UInt16(port)) }
            for poll in polls { try poll.send("GET /api/frontend HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n") }
            let answered = polls.map { poll in
                String(decoding: poll.receive(until: "\r\n\r\n", timeout: .seconds(10)), as: UTF8.self)
                    .hasPrefix("HTTP/1.1 200") ? 1 : 0
            }
            // More connections than the descriptors allow: the server cannot accept them all, and says so.
            var extra: [LoopbackHTTPRawConnection] = []
            for _ in 0..<150 { extra.append(try LoopbackHTTPRawConnection(port: UInt16(port))) }
            let logged = blockingEventually(timeout: .seconds(30)) { serve.standardError.contains("EMFILE") }
            withExtendedLifetime((streams, extra)) {}
            return (streams.map(\.1), answered, logged)
        }
        #expect(statuses.prefix(102).allSatisfy { $0 == "HTTP/1.1 200" }, "\(Set(statuses))")
        #expect(statuses.last == "HTTP/1.1 503")
        #expect(polls == Array(repeating: 1, count: 30))
        #expect(emfile, "\(serve.standardError.suffix(600))")
        #expect(serve.standardError.contains("too many open files (EMFILE)"))
        // Once the connections are gone, it accepts again.
        let again = try await HTTPExchange.send(try #require(URL(string: serve.baseURL + "/api/frontend")))
        #expect(again.status == 200)
    }

    @Test("soft limit 200 under a higher hard one: raised at start, so 300 streams are open at once")
    func softLimitIsRaised() async throws {
        let hard = try #require(Platform.openFileLimit).hard
        guard hard >= 2_000 else {
            print("softLimitIsRaised: skipped, the hard open-file limit here is \(hard)")
            return
        }
        let directory = TestDirectory.make("serve-files")
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try await ServeProcess(environment: Self.environment(directory), ulimit: "-Sn 200")
        defer { _ = serve.terminate() }
        #expect(!serve.standardError.contains("lowered"))
        let port = serve.port
        let statuses = try await offCooperativePool { () -> [String] in
            let streams = try Self.openStreams(port, 300)
            defer { for (connection, _) in streams { connection.close() } }
            return streams.map(\.1)
        }
        #expect(statuses.allSatisfy { $0 == "HTTP/1.1 200" }, "\(statuses.filter { $0 != "HTTP/1.1 200" }.count)")
        #expect(!serve.standardError.contains("EMFILE"))
    }
}
