import Flagstaff

/// The demo's `diagnostics.network` group.
final class DemoNetworkDiagnosticsFeatures: FeatureGroup, @unchecked Sendable {
    // @unchecked: adds only immutable `let` flags to FeatureGroup, which is thread-safe.

    let logRequests = Feature(description: "Log every HTTP request and response header")
    let simulateSlowNetwork = Feature(description: "Delay every request by two seconds")
    let useStagingServer = Feature(
        description: "Talk to the staging server instead of production; connections are opened at launch",
        requiresRestart: true)

    init() {
        super.init(label: "Network", description: "Requests and servers")
    }
}
