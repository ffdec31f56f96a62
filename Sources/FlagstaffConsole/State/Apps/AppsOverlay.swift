/// The connected apps overlay (`A`, with `console --serve`): the apps as last read, and the first one shown.
package struct AppsOverlay: Sendable, Equatable {
    /// The apps (open streams first, then the pollers), or `nil` until the first read is answered.
    package var apps: [ConnectedApp]?
    /// The index of the first app shown.
    package var offset = 0

    /// Shows the apps as read now, keeping the scroll where it can be.
    package mutating func show(_ read: [ConnectedApp]) {
        apps = read
        offset = min(offset, max(0, read.count - 1))
    }

    /// Scrolls by `delta` apps (clamped; nothing before the first read).
    package mutating func scroll(by delta: Int) {
        guard let count = apps?.count else { return }
        offset = min(max(0, offset + delta), max(0, count - 1))
    }
}
