import FlagstaffTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Request bodies that start with a UTF-8 byte-order mark, sent to the built `flagstaff serve`: each is read as
/// the JSON after the mark (RFC 8259 lets a reader ignore it), and the server goes on answering.
@Suite struct ByteOrderMarkServeTests {
    @Test("POST bodies with a byte-order mark are read, and the server still answers afterwards")
    func markedBodiesAreReadAndTheServerGoesOn() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-bom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FLAGSTAFF_") }
        environment["FLAGSTAFF_STORE"] = directory.appendingPathComponent("demo.json").path
        environment["FLAGSTAFF_DEMO"] = "1"  // the demo registry on this store (no app announced one)
        environment["HOME"] = directory.path
        let serve = try await ServeProcess(environment: environment)
        var stopped = false
        defer { if !stopped { _ = serve.terminate() } }
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        func post(_ path: String, _ json: String) async throws -> HTTPExchange {
            try await HTTPExchange.send(
                try #require(URL(string: serve.baseURL + path)), method: "POST",
                headers: ["Content-Type": "application/json"], body: Data(mark + Array(json.utf8)))
        }

        let evaluated = try await post("/ofrep/v1/evaluate/flags/blueText", #"{"context":{"targetingKey":"u1"}}"#)
        #expect(evaluated.status == 200, "\(evaluated.text)")
        #expect(evaluated.text.contains(#""value":false"#), "\(evaluated.text)")
        let bulk = try await post("/ofrep/v1/evaluate/flags", "{}")
        #expect(bulk.status == 200, "\(bulk.text)")
        let register = try await post(
            "/api/client/register", #"{"appName":"bom-app","instanceId":"i","sdkVersion":"x:1","strategies":[]}"#)
        #expect(register.status == 202, "\(register.text)")
        let metrics = try await post(
            "/api/client/metrics",
            #"{"appName":"bom-app","bucket":{"start":"a","stop":"b","toggles":{"blueText":{"yes":1,"no":0}}}}"#)
        #expect(metrics.status == 202, "\(metrics.text)")
        let frontend = try await post("/api/frontend", #"{"appName":"bom-app"}"#)
        #expect(frontend.status == 200, "\(frontend.text)")
        // Only a mark (then nothing) is an empty context; a mark before bad JSON is a plain 400.
        #expect(try await post("/ofrep/v1/evaluate/flags/blueText", "").status == 200)
        #expect(try await post("/ofrep/v1/evaluate/flags/blueText", "{").status == 400)

        let after = try await HTTPExchange.send(
            try #require(URL(string: serve.baseURL + "/ofrep/v1/evaluate/flags/blueText")), method: "POST",
            body: Data("{}".utf8))
        #expect(after.status == 200, "the server stopped answering: \(serve.standardError)")
        stopped = true
        #expect(serve.terminate() == 0)
    }
}
