/// The connected apps overlay (`A`, with `console --serve`): the apps as last read, and the first one shown.
package struct AppsOverlay: Sendable, Equatable {
    /// The apps (open streams first, then the pollers), or `nil` until the first read is answered.
    package var apps: [ConnectedApp]?
    /// The index of the first app shown.
    package var offset = 0
}
