import Flagstaff
import Foundation

/// Runs a provider fetch with a hard deadline on the config's clock, even if the provider ignores cancellation.
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

        /// Resumes the waiter with the first outcome; later outcomes are dropped. The losing task is cancelled
        /// first, so when the waiter resumes the timer no longer sleeps on the clock (a test clock's sleeper
        /// count then shows only the caller's own waits).
        func finish(_ outcome: Outcome) {
            let (continuation, tasks) = slots.withLock { slots in
                defer { slots.continuation = nil }
                return (slots.continuation, slots.tasks)
            }
            guard let continuation else { return }
            tasks.forEach { $0.cancel() }
            continuation.resume(returning: outcome)
        }
    }

    /// Resumes with the operation's result or, once `seconds` have passed on `clock`, with
    /// ``RemoteConfigProviderError/timedOut(after:)`` (cancelling the operation), whichever comes first.
    static func run(
        seconds: TimeInterval,
        clock: any Clock<Duration>,
        _ operation: @escaping @Sendable () async throws(RemoteConfigProviderError) -> RemoteConfigFetchResponse
    ) async -> Outcome {
        let race = Race()
        let limit = RemoteConfigEnvironment.duration(seconds: seconds)
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
                do { try await clock.sleep(for: limit) } catch { return }  // cancelled: the operation finished
                race.finish(.failure(.timedOut(after: seconds)))
            }
            race.track([work, timer])
        }
    }
}
