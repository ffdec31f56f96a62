import Foundation

/// The tests of the remote clients against hostile servers run in a test process of their own: they make
/// FoundationNetworking's threads wait on purpose (a body or a stream sent faster than it is read holds libcurl's
/// thread back, up to 10 s at a time), and beside the rest of the suite that starved the in-process servers of other
/// tests of threads (their event streams missed every deadline). `.ci/run` runs them after `swift test`, as
/// `FLAGSTAFF_HOSTILE_TESTS=1 swift test --skip-build --filter HostileTests`; a plain `swift test` skips them, saying so.
package enum HostileServerTests {
    /// Whether this test process runs them (`FLAGSTAFF_HOSTILE_TESTS=1`).
    package static let inOwnProcess = ProcessInfo.processInfo.environment["FLAGSTAFF_HOSTILE_TESTS"] == "1"
    /// Why they are skipped otherwise.
    package static let reason =
        "hostile-server tests run in a process of their own: FLAGSTAFF_HOSTILE_TESTS=1 swift test --filter HostileTests"
}

/// The tests of `flagstaff serve` under stalled clients run in a test process of their own too: they make the server
/// render and send answers of about 6 MB to many connections that never read (20 CPU-seconds at their start), on the
/// event-loop threads every in-process server of the test process shares (two on a 2-core machine), so beside the
/// rest of the suite other servers' event streams missed their deadlines. `.ci/run` runs them after `swift test`, as
/// `FLAGSTAFF_STALLED_CLIENT_TESTS=1 swift test --skip-build --filter "StalledClientTests|WriteTimeoutTests"`; a plain
/// `swift test` skips them, saying so.
package enum StalledClientServerTests {
    /// Whether this test process runs them (`FLAGSTAFF_STALLED_CLIENT_TESTS=1`).
    package static let inOwnProcess = ProcessInfo.processInfo.environment["FLAGSTAFF_STALLED_CLIENT_TESTS"] == "1"
    /// Why they are skipped otherwise.
    package static let reason =
        "stalled-client tests of serve run in a process of their own: FLAGSTAFF_STALLED_CLIENT_TESTS=1 swift test --filter \"StalledClientTests|WriteTimeoutTests\""
}
