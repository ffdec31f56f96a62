import Flagstaff
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Bodies sent compressed to clients that accept gzip (the Python SDKs' `requests`, browsers, URLSession do),
/// and plain to the others.
@Suite struct GzipBodyTests {
    @Test func compressionRoundTripsAndAcceptEncodingIsRead() throws {
        let body = Array(String(repeating: #"{"key":"checkout.flag","value":true},"#, count: 500).utf8)
        let compressed = try #require(Gzip.compress(body))
        #expect(compressed.count < body.count / 10)
        #expect(compressed.prefix(2) == [0x1F, 0x8B], "a gzip member")
        #expect(Gzip.decompress(compressed) == body)
        #expect(Gzip.decompress(body) == nil)
        #expect(Gzip.isAccepted(by: "gzip, deflate"))
        #expect(Gzip.isAccepted(by: "br;q=1.0, GZIP;q=0.5"))
        #expect(Gzip.isAccepted(by: "*"))
        #expect(!Gzip.isAccepted(by: "gzip;q=0"))
        #expect(!Gzip.isAccepted(by: "deflate, br"))
        #expect(!Gzip.isAccepted(by: nil))
        // Optional white space is spaces and tabs; empty list elements are skipped; the first gzip entry decides.
        #expect(Gzip.isAccepted(by: "deflate,\t gzip ;\tq=0.8"))
        #expect(Gzip.isAccepted(by: ", , gzip"))
        #expect(!Gzip.isAccepted(by: "br, gzip ; q=0 , *"))
        #expect(!Gzip.isAccepted(by: "  ,  "))
        #expect(!Gzip.isAccepted(by: "gzipped"))
    }

    @Test func ifNoneMatchListsAreReadWithWeakTagsAndWhiteSpace() {
        let tag = "\"0123abcd\""
        #expect(ServerReply.matches(tag, tag))
        #expect(ServerReply.matches("\"other\",\t W/\"0123abcd\"", tag))
        #expect(ServerReply.matches(" \"0123abcd-gzip\" ", tag), "the gzip body's tag names the same values")
        #expect(ServerReply.matches("*", tag))
        #expect(ServerReply.matches("\"x\", , *", tag))
        #expect(ServerReply.matches("\"0123abcd\"", "W/" + tag), "weak comparison")
        #expect(!ServerReply.matches("\"0123abcd-br\", \"0123abc\"", tag))
        #expect(!ServerReply.matches("", tag))
        #expect(!ServerReply.matches("0123abcd", tag), "an unquoted tag is another tag")
    }

    /// One request on its own connection (closed by the request), answered as raw bytes.
    private func exchange(_ port: Int, _ request: String) throws -> (head: String, body: [UInt8]) {
        let descriptor = try #require(LoopbackSocket.connect(port: port))
        defer { close(descriptor) }
        let bytes = Array(request.utf8)
        try #require(bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        let end = try #require(received.firstRange(of: Array("\r\n\r\n".utf8)))
        return (String(decoding: received[..<end.lowerBound], as: UTF8.self), Array(received[end.upperBound...]))
    }

    @Test func aClientThatAcceptsGzipGetsTheSameBodyCompressedOthersGetItPlain() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let snapshot = ServedSnapshot(registry: registry)
        // Host `t`: the bulk answer names the event stream at the address the client used.
        let stream = OFREPBodies.EventStream(host: "t")
        let post = "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 2\r\n"
        let zipped = try exchange(running.port, post + "Accept-Encoding: gzip, deflate\r\n\r\n{}")
        #expect(zipped.head.lowercased().contains("content-encoding: gzip"), "\(zipped.head)")
        #expect(zipped.head.lowercased().contains("vary: accept-encoding"))
        #expect(Gzip.decompress(zipped.body) == OFREPBodies.bulk(snapshot, eventStream: stream))
        // Its own ETag (the plain one with -gzip), and either answers If-None-Match with a 304.
        #expect(zipped.head.contains("ETag: " + ServerReply.gzipTag(snapshot.etag)), "\(zipped.head)")
        for tag in [snapshot.etag, ServerReply.gzipTag(snapshot.etag)] {
            let again = try exchange(running.port, post + "Accept-Encoding: gzip\r\nIf-None-Match: \(tag)\r\n\r\n{}")
            #expect(again.head.hasPrefix("HTTP/1.1 304"), "\(tag): \(again.head)")
        }
        let plain = try exchange(running.port, post + "\r\n{}")
        #expect(!plain.head.lowercased().contains("content-encoding"))
        #expect(plain.body == OFREPBodies.bulk(snapshot, eventStream: stream))
        let refused = try exchange(running.port, post + "Accept-Encoding: gzip;q=0\r\n\r\n{}")
        #expect(refused.body == OFREPBodies.bulk(snapshot, eventStream: stream))
        let frontend = try exchange(
            running.port, "GET /api/frontend HTTP/1.1\r\nHost: t\r\nConnection: close\r\nAccept-Encoding: gzip\r\n\r\n")
        #expect(Gzip.decompress(frontend.body) == UnleashBodies.frontend(snapshot))
    }
}
