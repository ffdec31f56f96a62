import Flagstaff

/// The demo's `diagnostics` group: tools for developers and QA, with a nested `network` group.
struct DemoDiagnosticsFeatures: FeatureGroup {
    let groupOptions = GroupOptions(label: "Diagnostics", description: "Tools for developers and QA")
    let showFrameRate = Feature(description: "Overlay the current frame rate in the corner of the screen")
    let slowAnimations = Feature(description: "Run every animation at a tenth of its speed")
    let internalMenu = Feature(
        description: "Show the internal tools menu (on in debug and internal builds)",
        enabledIn: [.debug, .internal])
    let network = DemoNetworkDiagnosticsFeatures()
}
