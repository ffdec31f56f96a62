import Flagstaff

/// The demo's `list` group: how the main list loads and shows rows.
struct DemoListFeatures: FeatureGroup {
    let groupOptions = GroupOptions(label: "List", description: "The main list of moments")
    let infiniteScroll = Feature(
        description: "Load more rows when the list is scrolled to the bottom, instead of a More button")
    let pullToRefresh = Feature(description: "Refresh the list by pulling it down", default: true)
    let compactRows = Feature(description: "Show two lines per row instead of three")
    let sectionIndex = Feature(
        label: "Section Index", description: "Show an A–Z index on the right edge for long lists")
    let skeletonPlaceholders = Feature(
        description: "Show grey placeholder rows while the first page loads", default: true)
}
