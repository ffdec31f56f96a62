/// The connected apps overlay (`A`, with `console --serve`).
extension ConsoleState {
    /// Whether a flag server runs beside the console (`console --serve`).
    package var hasServer: Bool { status.remotes.contains(where: \.isServer) }

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
        overlay.apps = apps
        overlay.offset = min(overlay.offset, max(0, apps.count - 1))
        mode = .apps(overlay)
    }

    /// `Esc`, `A`, `q` in the overlay.
    mutating func closeApps() {
        mode = .list
    }

    /// Scrolls the overlay by apps.
    mutating func scrollApps(by delta: Int) {
        guard case .apps(var overlay) = mode, let count = overlay.apps?.count else { return }
        overlay.offset = min(max(0, overlay.offset + delta), max(0, count - 1))
        mode = .apps(overlay)
    }
}
