import FlagstaffTestSupport
import Foundation
import Testing

@testable import Flagstaff

/// Real child processes appending to one journal at once, and writers killed mid-change.
@Suite(.serialized) struct JournalMultiProcessTests {
    static var tool: URL? { MultiProcessStoreTests.tool }

    @Test(.enabled(if: tool != nil, "the StoreStressTool binary is built next to the test bundle by `swift test`"))
    func severalWriterProcessesNeverInterleaveOrLoseLines() async throws {
        let file = temporaryDirectory().appendingPathComponent("overrides.json")
        let processes = 5
        let writes = 30
        let statuses = try await MultiProcessStoreTests.runWriters(processes) {
            ["bulk", file.path, "writer\($0)", "\(writes)"]
        }
        #expect(statuses == Array(repeating: 0, count: processes))
        let contents = try #require(try FileOverrideStore(url: file).journal()).read()
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        let changes = contents.changes
        #expect(changes.count == processes * writes, "each change's lines are together")
        #expect(Set(changes.map(\.id)).count == changes.count)
        for change in changes {
            #expect(change.entries.count == 20)
            let prefixes = Set(change.keys.map { $0.split(separator: ".").prefix(2).joined(separator: ".") })
            #expect(prefixes.count == 1, "one change's lines come from one write: \(prefixes)")
            #expect(Set(change.entries.map(\.pid)).count == 1)
        }
    }

    @Test(.enabled(if: tool != nil, "the StoreStressTool binary is built next to the test bundle by `swift test`"))
    func writersKilledMidChangeLeaveAReadableJournalWithEveryCompletedChange() async throws {
        let file = temporaryDirectory().appendingPathComponent("overrides.json")
        for round in 0..<10 {
            let done = try await MultiProcessStoreTests.killWriter(
                ["forever-bulk", file.path, "round\(round)"], after: 1 + round % 4)
            let contents = try #require(try FileOverrideStore(url: file).journal()).read()
            #expect(contents.problems.isEmpty, "round \(round): \(contents.problems)")
            let keys = Set(contents.entries.map(\.key))
            for index in done {
                #expect(keys.contains("round\(round).\(index).19"), "round \(round): completed change \(index) lost")
            }
        }
        // A later write appends after whatever the last kill left.
        _ = try FileOverrideStore(url: file).write(["after": .set(.on)])
        let contents = try #require(try FileOverrideStore(url: file).journal()).read()
        #expect(contents.problems.isEmpty && contents.entries.last?.key == "after")
    }
}
