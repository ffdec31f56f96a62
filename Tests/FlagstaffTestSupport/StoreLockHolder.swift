import Foundation

/// A `StoreStressTool hold FILE` process: another process holding a store's lock until ``release()``, for the
/// tests of lock waits and timeouts.
package final class StoreLockHolder: Sendable {
    /// The holding process (its pid is what the lock file records).
    package let process: Process
    private let input: Pipe
    /// Signalled by the process's termination handler.
    private let exited: DispatchSemaphore

    private init(process: Process, input: Pipe, exited: DispatchSemaphore) {
        self.process = process
        self.input = input
        self.exited = exited
    }

    /// Starts the holder and returns once it holds the lock.
    /// - Parameters:
    ///   - tool: the built `StoreStressTool`.
    ///   - path: the store file whose lock to hold.
    /// - Returns: the running holder; call ``release()`` when done.
    /// - Throws: when the tool cannot be started or does not report holding the lock.
    package static func start(tool: URL, path: String) async throws -> StoreLockHolder {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        process.executableURL = tool
        process.arguments = ["hold", path]
        process.standardInput = input
        process.standardOutput = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let holder = StoreLockHolder(process: process, input: input, exited: exited)
        let ready = try await offCooperativePool { output.fileHandleForReading.availableData }
        guard String(decoding: ready, as: UTF8.self) == "locked\n" else {
            holder.release()
            throw StoreLockHolderError(output: String(decoding: ready, as: UTF8.self))
        }
        return holder
    }

    /// Ends the holder (it releases the lock when its standard input closes) and waits for it to exit: at most
    /// 5 s, then it is killed (another child process started meanwhile may have inherited the pipe's write end,
    /// so the end of input is not guaranteed to arrive). Never `waitUntilExit()`, which can spin forever.
    package func release() {
        try? input.fileHandleForWriting.close()
        if waitForExit(seconds: 5) { return }
        kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(seconds: 5)
    }

    private func waitForExit(seconds: Double) -> Bool {
        exited.wait(timeout: .now() + seconds) == .success
    }
}

/// `StoreStressTool hold` did not report holding the lock.
package struct StoreLockHolderError: Error, CustomStringConvertible {
    /// What it printed instead of `locked`.
    package let output: String

    package var description: String {
        "StoreStressTool hold did not report the lock (printed \(output.debugDescription))"
    }
}
