import Flagstaff

/// Lets one async operation through at a time, in arrival order: the OFREP provider's bulk evaluations and an Unleash
/// client's fetches never overlap, so their answers are applied in the order they were asked for.
package final class AsyncSerialGate: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = AnnotatedMutex(State())

    package init() {}

    /// How many callers wait for their turn.
    package var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `body` once every earlier caller's has returned. A cancelled caller still waits for its turn (its
    /// `body` sees the cancellation).
    package func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let goNow = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if goNow { continuation.resume() }
        }
        defer {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.busy = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return await body()
    }
}
