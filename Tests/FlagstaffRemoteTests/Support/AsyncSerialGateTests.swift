import Flagstaff
import FlagstaffTestSupport
import Testing

@testable import FlagstaffRemote

@Suite("Async serial gate")
struct AsyncSerialGateTests {
    /// What the bodies did, in order, and how many ran at once at most.
    private final class Log: Sendable {
        private struct State {
            var order: [Int] = []
            var running = 0
            var mostAtOnce = 0
        }
        private let state = AnnotatedMutex(State())

        func begin(_ id: Int) {
            state.withLock {
                $0.order.append(id)
                $0.running += 1
                $0.mostAtOnce = max($0.mostAtOnce, $0.running)
            }
        }

        func end() { state.withLock { $0.running -= 1 } }
        var order: [Int] { state.withLock { $0.order } }
        var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }
    }

    @Test("bodies never overlap, and run in the order their callers arrived")
    func oneAtATimeInArrivalOrder() async {
        let gate = AsyncSerialGate()
        let log = Log()
        // The first body holds the gate until every other caller is queued behind it.
        let (release, released) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            await gate.run {
                log.begin(0)
                for await _ in release { break }
                log.end()
            }
        }
        #expect(await eventually { log.order == [0] })
        var callers: [Task<Int, Never>] = []
        for id in 1...20 {
            callers.append(
                Task {
                    await gate.run {
                        log.begin(id)
                        await Task.yield()
                        log.end()
                        return id
                    }
                })
            // The next caller starts once this one waits at the gate: arrival order is the loop's order.
            #expect(await eventually { gate.waitingCount == id })
        }
        released.yield()
        await first.value
        var results: [Int] = []
        for caller in callers { results.append(await caller.value) }
        #expect(results == Array(1...20))
        #expect(log.order == Array(0...20))
        #expect(log.mostAtOnce == 1)
    }
}
