/// Tries `attempt` every `interval` until it returns a value or `timeout` (real time) has passed: the one way the
/// tests and the terminal driver wait for something another process or thread will do (a screen, a file, a
/// request). Never a way to show that something did *not* happen.
/// - Parameters:
///   - interval: the pause between attempts.
///   - timeout: how long to keep trying; one last attempt is made at the deadline.
///   - attempt: returns the awaited value, or `nil` while it is not there yet.
/// - Returns: the first value `attempt` returned, or `nil` when the timeout passed first.
/// - Throws: what `attempt` throws; `CancellationError` when the task is cancelled.
package func poll<Value>(
    every interval: Duration = .milliseconds(20), timeout: Duration, _ attempt: () async throws -> Value?
) async throws -> Value? {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
        if let value = try await attempt() { return value }
        if clock.now >= deadline { return nil }
        try await Task.sleep(for: interval)
    }
}

/// Polls `condition` every few milliseconds until it holds or `timeout` passes.
/// - Parameters:
///   - timeout: how long to keep trying.
///   - condition: what is awaited.
/// - Returns: whether the condition held in time (`false` also when the task is cancelled).
package func eventually(timeout: Duration = .seconds(90), _ condition: () -> Bool) async -> Bool {
    (try? await poll(every: .milliseconds(5), timeout: timeout) { condition() ? true : nil }) != nil
}
