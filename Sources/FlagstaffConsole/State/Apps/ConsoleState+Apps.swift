/// The connected apps overlay (`A`, with `console --serve`).
extension ConsoleState {
    /// Whether a flag server runs beside the console (`console --serve`).
    package var hasServer: Bool { status.remotes.contains(where: \.isServer) }

    /// Carries out a key of the apps overlay (see ``KeyBindings/appsOverlay``).
    mutating func perform(_ action: AppsAction) -> [ConsoleEffect] {
        switch action {
        case .open: return openApps()
        case .close: mode = .list
        case .scroll(let delta):
            guard case .apps(var overlay) = mode else { return [] }
            overlay.scroll(by: delta)
            mode = .apps(overlay)
        }
        return []
    }

    /// `A`: opens the overlay and asks for the apps (read again about once a second while it is open).
    mutating func openApps() -> [ConsoleEffect] {
        guard hasServer else {
            statusMessage = "No flag server: the apps show with flagstaff console --serve [HOST:]PORT"
            return []
        }
        mode = .apps(AppsOverlay())
        return [.read(.connectedApps)]
    }

    /// The apps were read: shown, the scroll kept where it can be.
    mutating func showApps(_ apps: [ConnectedApp]) {
        guard case .apps(var overlay) = mode else { return }
        overlay.show(apps)
        mode = .apps(overlay)
    }
}
