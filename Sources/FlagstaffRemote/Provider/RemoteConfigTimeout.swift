import Flagstaff
import Foundation
import Synchronization

/// Runs a provider fetch with a hard deadline, even if the provider ignores cancellation.
enum RemoteConfigTimeout {
    typealias Outcome = Result<RemoteConfigFetchResponse, RemoteConfigProviderError>

    /// The shared state of one race: the waiting continuation and the two competing tasks.
    private final class Race: Sendable {
        private struct Slots {
            var continuation: CheckedContinuation<Outcome, Never>?
            var tasks: [Task<Void, Never>] = []
        }

        private let slots = AnnotatedMutex(Slots())

        func arm(_ continuation: CheckedContinuation<Outcome, Never>) {
            slots.withLock { $0.continuation = continuation }
        }

        /// Stores the tasks; cancels them at once if the race already finished.
        func track(_ tasks: [Task<Void, Never>]) {
            let finished = slots.withLock { slots in
                slots.tasks = tasks
                return slots.continuation == nil
            }
            if finished { tasks.forEach { $0.cancel() } }
        }

        /// Resumes the waiter with the first outcome; later outcomes are dropped.
        func finish(_ outcome: Outcome) {
            let (continuation, tasks) = slots.withLock { slots in
                defer { slots.continuation = nil }
                return (slots.continuation, slots.tasks)
            }
            guard let continuation else { return }
            continuation.resume(returning: outcome)
            tasks.forEach { $0.cancel() }
        }
    }

    /// Resumes with the operation's result or, after `seconds`, with ``RemoteConfigProviderError/timedOut(after:)``
    /// (cancelling the operation), whichever comes first.
    static func run(
        seconds: TimeInterval,
        _ operation: @escaping @Sendable () async throws(RemoteConfigProviderError) -> RemoteConfigFetchResponse
    ) async -> Outcome {
        let race = Race()
        return await withCheckedContinuation { continuation in
            race.arm(continuation)
            let work = Task {
                do throws(RemoteConfigProviderError) {
                    race.finish(.success(try await operation()))
                } catch {
                    race.finish(.failure(error))
                }
            }
            let timer = Task {
                let nanoseconds = UInt64(max(0, seconds) * 1_000_000_000)
                try? await Task.sleep(nanoseconds: nanoseconds)
                if !Task.isCancelled { race.finish(.failure(.timedOut(after: seconds))) }
            }
            race.track([work, timer])
        }
    }
}
