import Flagstaff

/// The demo's `diagnostics.network` group.
struct DemoNetworkDiagnosticsFeatures: FeatureGroup {
    let groupOptions = GroupOptions(label: "Network", description: "Requests and servers")
    let logRequests = Feature(description: "Log every HTTP request and response header")
    let simulateSlowNetwork = Feature(description: "Delay every request by two seconds")
    let useStagingServer = Feature(
        description: "Talk to the staging server instead of production; connections are opened at launch",
        requiresRestart: true)
}
