import Flagstaff
import FlagstaffServer
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many clients at once while the store changes under them (also run under the thread sanitizer): every answer is
/// whole and consistent — one ETag always comes with one body — and the last change is what is served at the end.
@Suite struct ServerConcurrencyTests {
    @Test("concurrent clients while the store changes: whole answers, one body per ETag, the last value at the end")
    func concurrentClientsWhileTheStoreChanges() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("overrides.json")
        let registry = try ServedFixtures.registry(store: try FileOverrideStore(url: url))
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }

        final class Record: Sendable {
            let bodiesByETag = Mutex<[String: Data]>([:])
            let mismatches = Mutex<[String]>([])
        }
        let record = Record()
        let writes = 20
        try await withThrowingTaskGroup(of: Void.self) { group in
            // A writer: another process's store object, changing a setting and a flag.
            group.addTask {
                let other = try FileOverrideStore(url: url)
                for round in 1...writes {
                    _ = try other.update([
                        "maxItems": try OverrideValue(json: "\(round)"),
                        "blueText": round.isMultiple(of: 2) ? .on : .off,
                    ])
                    await Task.yield()
                }
            }
            for client in 0..<6 {
                group.addTask {
                    for request in 0..<15 {
                        let exchange: HTTPExchange
                        switch (client + request) % 3 {
                        case 0: exchange = try await HTTPExchange.send(running.url("/api/frontend"))
                        case 1: exchange = try await HTTPExchange.send(running.url("/api/client/features"))
                        default:
                            exchange = try await HTTPExchange.send(
                                running.url("/ofrep/v1/evaluate/flags"), method: "POST", body: Data("{}".utf8))
                        }
                        guard exchange.status == 200 else {
                            record.mismatches.withLock { $0.append("status \(exchange.status): \(exchange.text)") }
                            continue
                        }
                        // Whole JSON, and the same ETag never names two bodies of one endpoint.
                        if (try? JSONSerialization.jsonObject(with: exchange.body)) == nil {
                            record.mismatches.withLock { $0.append("not JSON: \(exchange.text.prefix(80))") }
                        }
                        let tag = "\((client + request) % 3) \(exchange.header("ETag") ?? "none")"
                        record.bodiesByETag.withLock { known in
                            if let previous = known[tag], previous != exchange.body {
                                record.mismatches.withLock { $0.append("two bodies for \(tag)") }
                            }
                            known[tag] = exchange.body
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(record.mismatches.withLock { $0 }.isEmpty, "\(record.mismatches.withLock { $0 })")
        #expect(record.bodiesByETag.withLock { $0.count } > 3)  // the values changed while clients read them
        // After the last write, the next request serves it.
        let last = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags/maxItems"), method: "POST", body: Data("{}".utf8))
        let object = try ServedFixtures.json(Array(last.body))
        #expect(object["value"] as? Int == writes, "\(last.text)")
    }
}
