import Flagstaff
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Testing

/// `HEAD` wherever `GET` is served, on the wire: the `GET` answer's status and headers, no body.
@Suite struct HeadRequestTests {
    /// One exchange on a raw connection: the response head's status line and headers (lower-cased names), and
    /// what came after the head.
    private struct RawReply {
        var statusLine: String
        var headers: [String: String]
        var rest: Data

        init(_ data: Data) throws {
            let separator = Data("\r\n\r\n".utf8)
            let end = try #require(data.range(of: separator), "no complete response head: \(data)")
            let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            statusLine = head[0]
            headers = [:]
            for line in head.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
            rest = data[end.upperBound...]
        }

        /// The headers a HEAD answer must share with the GET answer (`date` changes between the two).
        var comparable: [String: String] { headers.filter { $0.key != "date" } }
    }

    /// Sends `HEAD path` then `GET path` on one keep-alive connection, and returns both replies: the GET reply
    /// parses right after the HEAD head only if the HEAD answer had no body.
    private static func headThenGet(port: Int, _ path: String, headers: String = "") async throws -> (
        RawReply, RawReply
    ) {
        try await offCooperativePool {
            let connection = try LoopbackHTTPRawConnection(port: UInt16(port))
            try connection.send("HEAD \(path) HTTP/1.1\r\nHost: t\r\n\(headers)\r\n")
            let head = try RawReply(connection.receive(until: "\r\n\r\n"))
            #expect(head.rest.isEmpty, "a HEAD answer carried body bytes: \(head.rest.count)")
            try connection.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\(headers)\r\n")
            var received = head.rest + connection.receive(until: "\r\n\r\n")
            var get = try RawReply(received)
            let length = get.headers["content-length"].flatMap(Int.init) ?? 0
            while get.rest.count < length {
                let more = connection.receive(timeout: .milliseconds(200))
                if more.isEmpty { break }
                received += more
                get = try RawReply(received)
            }
            return (head, get)
        }
    }

    @Test(
        "HEAD on every GET route: the GET status and headers (ETag, Content-Length, Vary), no body",
        arguments: ["/api/frontend", "/api/proxy", "/api/client/features", "/api/frontend?appName=web"])
    func headLikeGet(path: String) async throws {
        let running = try await RunningServer(registry: try ServedFixtures.registry())
        defer { Task { await running.stop() } }
        let (head, get) = try await Self.headThenGet(port: running.port, path)
        #expect(get.statusLine == "HTTP/1.1 200 OK")
        #expect(head.statusLine == get.statusLine)
        #expect(head.comparable == get.comparable)
        #expect(head.headers["etag"] != nil && head.headers["content-length"] != nil)
        #expect(Int(get.headers["content-length"] ?? "") == get.rest.count && get.rest.count > 0)
    }

    @Test("HEAD with If-None-Match: 304 like GET; with gzip accepted: the compressed answer's headers")
    func conditionalAndCompressed() async throws {
        let running = try await RunningServer(registry: try ServedFixtures.registry())
        defer { Task { await running.stop() } }
        let etag = try #require(try await Self.headThenGet(port: running.port, "/api/frontend").0.headers["etag"])
        let (notModified, getNotModified) = try await Self.headThenGet(
            port: running.port, "/api/client/features", headers: "If-None-Match: *\r\n")
        #expect(
            notModified.statusLine == "HTTP/1.1 304 Not Modified" && notModified.comparable == getNotModified.comparable
        )
        let (gzip, getGzip) = try await Self.headThenGet(
            port: running.port, "/api/frontend", headers: "Accept-Encoding: gzip\r\n")
        #expect(gzip.headers["content-encoding"] == "gzip" && gzip.headers["etag"] == ServerReply.gzipTag(etag))
        #expect(gzip.comparable == getGzip.comparable)
    }

    @Test("HEAD on a registry whose bodies are streamed: chunked like GET, nothing rendered into the answer")
    func streamedBody() async throws {
        let count = ServedSnapshot.defaultCachedBodyLimit + 10
        let registry = try AnyFeatureRegistry(
            manifest: RegistryManifest(
                name: "Large", flags: (0..<count).map { RegistryManifest.Flag(key: "f\($0)", default: $0 % 2 == 0) }),
            options: RegistryOptions(storeWatchInterval: nil))
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let head = try await offCooperativePool {
            let connection = try LoopbackHTTPRawConnection(port: UInt16(running.port))
            try connection.send("HEAD /api/client/features HTTP/1.1\r\nHost: t\r\n\r\n")
            var received = connection.receive(until: "\r\n\r\n")
            // Anything after the head would arrive with it or right after.
            received += connection.receive(timeout: .milliseconds(300))
            return try RawReply(received)
        }
        #expect(head.statusLine == "HTTP/1.1 200 OK")
        #expect(head.headers["transfer-encoding"] == "chunked" && head.headers["content-length"] == nil)
        #expect(head.headers["etag"] == ServedSnapshot(registry: registry).etag)
        #expect(head.rest.isEmpty, "\(head.rest.count) body bytes after a HEAD answer")
    }

    @Test("HEAD on an unknown path or without the token: the status, no body, the connection still usable")
    func errorsWithoutBody() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(), configuration: FlagServerConfiguration(tokens: ["secret"]))
        defer { Task { await running.stop() } }
        let (unauthorized, _) = try await Self.headThenGet(port: running.port, "/api/frontend")
        #expect(unauthorized.statusLine.hasPrefix("HTTP/1.1 401"))
        let (missing, getMissing) = try await Self.headThenGet(
            port: running.port, "/nowhere", headers: "Authorization: secret\r\n")
        #expect(missing.statusLine.hasPrefix("HTTP/1.1 404") && getMissing.statusLine.hasPrefix("HTTP/1.1 404"))
        #expect(String(decoding: getMissing.rest, as: UTF8.self).contains("no endpoint"))
    }
}
