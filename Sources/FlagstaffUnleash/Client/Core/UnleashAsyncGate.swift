import Flagstaff

/// Lets one async operation run at a time, in arrival order (fetches of one client never overlap).
final class UnleashAsyncGate: Sendable {
    private struct State {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = AnnotatedMutex(State())

    /// Runs `body` once every earlier caller has finished.
    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        await enter()
        defer { leave() }
        return await body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.busy {
                    state.waiters.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.busy = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
