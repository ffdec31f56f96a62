import Flagstaff

/// What the profile picker's keys do (``ConsoleAction/profile(_:)``).
package enum ProfileAction: Sendable, Hashable {
    /// Open the picker (the folder is read by the effect runner).
    case open
    /// Move the highlight.
    case move(by: Int)
    /// Switch Enter between merging and replacing.
    case toggleReplace
    /// Apply the highlighted profile and close.
    case apply
    /// Close without applying.
    case close
}

extension ConsoleState {
    /// Carries out a profile picker key.
    mutating func perform(_ action: ProfileAction) -> [ConsoleEffect] {
        switch action {
        case .open:
            mode = .profiles
            profilePicker = ProfilePicker()
            return [.loadProfiles]
        case .move(let delta):
            guard let picker = profilePicker, let count = picker.listing?.entries.count, count > 0 else { return [] }
            profilePicker?.selected = min(max(0, picker.selected + delta), count - 1)
        case .toggleReplace:
            profilePicker?.replace.toggle()
        case .apply:
            return applySelectedProfile()
        case .close:
            closeProfilePicker()
        }
        return []
    }

    /// Takes in a freshly read profiles folder, keeping the highlight on the same profile.
    mutating func receive(_ listing: ProfileListing) {
        guard mode == .profiles, var picker = profilePicker else { return }
        let name = picker.selectedEntry?.name
        picker.listing = listing
        picker.selected = name.flatMap { name in listing.entries.firstIndex { $0.name == name } } ?? 0
        picker.selected = min(picker.selected, max(0, listing.entries.count - 1))
        profilePicker = picker
    }

    private mutating func applySelectedProfile() -> [ConsoleEffect] {
        guard let picker = profilePicker, let entry = picker.selectedEntry else { return [] }
        guard let profile = entry.profile else {
            statusMessage = "Cannot apply \(entry.name): \(entry.problem ?? "it cannot be read")"
            return []
        }
        let changes = entry.changes(replace: picker.replace)
        closeProfilePicker()
        let how = picker.replace ? "replaced" : "merged"
        guard !changes.isEmpty else {
            statusMessage = "Profile \(entry.name) changes nothing (\(how))"
            return []
        }
        statusMessage =
            "Profile \(entry.name) \(how): \(changes.count) change\(changes.count == 1 ? "" : "s")"
        let values = Dictionary(changes.map { ($0.key, $0.new) }, uniquingKeysWith: { first, _ in first })
        return write(.profile(profile, replace: picker.replace, changes: values))
    }

    private mutating func closeProfilePicker() {
        mode = .list
        profilePicker = nil
    }
}
