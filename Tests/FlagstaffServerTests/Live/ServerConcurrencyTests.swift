import Flagstaff
import FlagstaffServer
import Foundation
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

        /// What one client saw: each answer's endpoint and ETag with its body, and anything wrong.
        struct Seen: Sendable {
            var answers: [(tag: String, body: Data)] = []
            var problems: [String] = []
        }
        let writes = 20
        // Each task returns what it saw; the checks run once all are done (no state shared while they run).
        let seen = try await withThrowingTaskGroup(of: Seen.self) { group in
            // A writer: another process's store object, changing a setting and a flag.
            group.addTask {
                let other = try FileOverrideStore(url: url)
                for round in 1...writes {
                    _ = try other.write([
                        "maxItems": .set(try OverrideValue(json: "\(round)")),
                        "blueText": .set(round.isMultiple(of: 2) ? .on : .off),
                    ])
                    await Task.yield()
                }
                return Seen()
            }
            for client in 0..<6 {
                group.addTask {
                    var seen = Seen()
                    for request in 0..<15 {
                        let endpoint = (client + request) % 3
                        let exchange: HTTPExchange
                        switch endpoint {
                        case 0: exchange = try await HTTPExchange.send(running.url("/api/frontend"))
                        case 1: exchange = try await HTTPExchange.send(running.url("/api/client/features"))
                        default:
                            exchange = try await HTTPExchange.send(
                                running.url("/ofrep/v1/evaluate/flags"), method: "POST", body: Data("{}".utf8))
                        }
                        guard exchange.status == 200 else {
                            seen.problems.append("status \(exchange.status): \(exchange.text)")
                            continue
                        }
                        if (try? JSONSerialization.jsonObject(with: exchange.body)) == nil {
                            seen.problems.append("not JSON: \(exchange.text.prefix(80))")
                        }
                        seen.answers.append(("\(endpoint) \(exchange.header("ETag") ?? "none")", exchange.body))
                    }
                    return seen
                }
            }
            return try await group.reduce(into: [Seen]()) { $0.append($1) }
        }
        // Whole JSON, and the same ETag never names two bodies of one endpoint.
        var problems = seen.flatMap(\.problems)
        var bodiesByETag: [String: Data] = [:]
        for answer in seen.flatMap(\.answers) {
            if let previous = bodiesByETag[answer.tag], previous != answer.body {
                problems.append("two bodies for \(answer.tag)")
            }
            bodiesByETag[answer.tag] = answer.body
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(bodiesByETag.count > 3)  // the values changed while clients read them
        // After the last write, the next request serves it.
        let last = try await HTTPExchange.send(
            running.url("/ofrep/v1/evaluate/flags/maxItems"), method: "POST", body: Data("{}".utf8))
        let object = try ServedFixtures.json(Array(last.body))
        #expect(object["value"] as? Int == writes, "\(last.text)")
    }
}
