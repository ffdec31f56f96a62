/// The pause before an event stream reconnects, shared by the OFREP provider and the Unleash server client.
package enum RemoteReconnectDelay {
    /// Doubles from `minimum` with each failure in a row (a dropped stream counts as one), at most `maximum`,
    /// times a jitter factor of 0.5–1.5 so that many clients do not come back at once; never shorter than the
    /// server's `retry:` (`serverMinimum`).
    /// - Parameters:
    ///   - failures: The failures in a row, at least one.
    ///   - minimum: The first pause.
    ///   - maximum: The longest pause before jitter.
    ///   - random: A number in 0..<1 (clamped), for the jitter.
    ///   - serverMinimum: The server's `retry:`, if it sent one.
    package static func after(
        failures: Int, minimum: Duration, maximum: Duration, random: Double, serverMinimum: Duration?
    ) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        var pause = minimum * (1 << exponent)
        if pause > maximum || pause < .zero { pause = maximum }
        pause = pause * (0.5 + min(max(random, 0), 1))
        if let serverMinimum, serverMinimum > pause { pause = serverMinimum }
        return pause
    }
}
