import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffServer

/// Names clients choose are cut and cleaned before the server keeps or logs them.
@Suite struct ClientNameTests {
    @Test("a short printable name is kept; a long one is cut with its length; control characters are replaced")
    func bounded() {
        #expect(ClientName.bounded("checkout") == "checkout")
        #expect(ClientName.bounded("ключ-app") == "ключ-app")
        let long = String(repeating: "a", count: 60_000)
        #expect(ClientName.bounded(long) == String(repeating: "a", count: 100) + "… (60000 bytes)")
        #expect(ClientName.bounded("a\nflagstaff: notice: forged") == "a\u{FFFD}flagstaff: notice: forged")
        #expect(ClientName.bounded("\u{1B}[31mred\u{7F}\u{85}") == "\u{FFFD}[31mred\u{FFFD}\u{FFFD}")
        #expect(ClientName.bounded("abc\u{202E}fed\u{2028}") == "abc\u{FFFD}fed\u{FFFD}")
        // Cut by scalars: a character with 10,000 combining marks is cut too.
        let marks = "e" + String(repeating: "\u{301}", count: 10_000)
        #expect(ClientName.bounded(marks).unicodeScalars.count < 200)
    }

    @Test("1,000-scalar names: the same cut however they are spelled, and never longer than the cut")
    func property() {
        var random = SeededRandom(seed: 34)
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", "\n", "\r", "\u{1B}", "\u{7F}", "é", "\u{202E}", "😀", " "]
        for _ in 0..<200 {
            let count = Int.random(in: 0...1_000, using: &random)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<count { scalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)]) }
            let name = String(scalars)
            let cut = ClientName.bounded(name)
            #expect(!cut.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" })
            #expect(cut.unicodeScalars.count <= ClientName.maximumScalars + 20)
            #expect(ClientName.bounded(cut) == cut || count > ClientName.maximumScalars)
        }
    }

    @Test("flagstaff serve: 40 calls with 60 KB app names write a few KB of log, not megabytes, and forge no line")
    func longNamesInTheLog() async throws {
        let directory = TestDirectory.make("serve-names")
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FLAGSTAFF_") }
        environment["FLAGSTAFF_STORE"] = directory.appendingPathComponent("demo.json").path
        environment["FLAGSTAFF_DEMO"] = "1"  // the demo registry on this store (no app announced one)
        environment["HOME"] = directory.path
        let serve = try await ServeProcess(environment: environment)
        defer { _ = serve.terminate() }
        let port = serve.port
        try await offCooperativePool {
            for index in 0..<40 {
                // `\n` is JSON's escape: the name holds a line end, then a forged log line, then 60 KB.
                let name = "app\(index)\\nflagstaff: notice: forged " + String(repeating: "x", count: 60 << 10)
                let body = #"{"appName":"\#(name)"}"#
                let connection = try LoopbackHTTPRawConnection(port: UInt16(port))
                try connection.send(
                    "POST /api/client/register HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
                _ = connection.receive(timeout: .seconds(10))
            }
        }
        let logged = await eventually(timeout: .seconds(30)) { serve.standardError.contains("app39") }
        #expect(logged, "\(serve.standardError.prefix(500))")
        let log = serve.standardError
        #expect(log.utf8.count < 32 << 10, "\(log.utf8.count) bytes of log for 40 calls")
        #expect(log.contains("app7\u{FFFD}flagstaff: notice: forged xxx"), "\(log.prefix(500))")
        #expect(log.contains("… (614"), "the cut name says how long it was")
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("flagstaff: notice: forged") })
    }
}
