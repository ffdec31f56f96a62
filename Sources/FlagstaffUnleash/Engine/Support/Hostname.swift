import Flagstaff

/// The machine's host name, for the `applicationHostname` strategy.
enum Hostname {
    /// `gethostname(2)`, or an empty string if it fails.
    static func current() -> String {
        Platform.hostName()
    }
}
