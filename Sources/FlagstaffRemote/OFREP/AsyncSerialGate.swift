import Flagstaff

/// Lets one async operation through at a time, in arrival order: the provider's bulk evaluations never overlap, so
/// their answers are applied in the order they were asked for.
package final class AsyncSerialGate: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = AnnotatedMutex(State())

    package init() {}

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
