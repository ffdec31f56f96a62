import Flagstaff
import Foundation

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
    /// Ask for a name to save the store's overrides under (`s`).
    case startSave
    /// Delete the last character of the name.
    case deleteNameCharacter
    /// Save the store's overrides under the name typed (`Enter`).
    case save
    /// Back to the list of profiles without saving or deleting (`Esc`).
    case back
    /// Ask whether to delete the highlighted profile (`d`).
    case askDelete
    /// Delete the highlighted profile (`y`).
    case confirmDelete
}

extension ConsoleState {
    /// Carries out a profile picker key.
    mutating func perform(_ action: ProfileAction) -> [ConsoleEffect] {
        switch action {
        case .open:
            mode = .profiles(ProfilePicker())
            return [.loadProfiles]
        case .move(let delta):
            guard let picker = profilePicker, let count = picker.listing?.entries.count, count > 0 else { return [] }
            updateProfilePicker { $0.selected = min(max(0, picker.selected + delta), count - 1) }
        case .toggleReplace:
            updateProfilePicker { $0.replace.toggle() }
        case .apply:
            return applySelectedProfile()
        case .close:
            closeProfilePicker()
        case .startSave:
            guard var picker = profilePicker else { return [] }
            picker.name = ""
            mode = .profileName(picker)
        case .deleteNameCharacter:
            updateProfilePicker { if !$0.name.isEmpty { $0.name.removeLast() } }
        case .save:
            return saveProfile()
        case .back:
            backToProfiles()
        case .askDelete:
            guard let picker = profilePicker, picker.selectedEntry != nil else {
                statusMessage = "No profile to delete"
                return []
            }
            mode = .profileDelete(picker)
        case .confirmDelete:
            backToProfiles()
            guard let name = profilePicker?.selectedEntry?.name else { return [] }
            return [.deleteProfile(name: name)]
        }
        return []
    }

    /// Types a character of the profile's name.
    mutating func typeProfileName(_ character: Character) {
        updateProfilePicker { picker in
            if picker.name.count < 100 { picker.name.append(character) }
        }
    }

    /// Changes the profile picker in place, in any of its modes.
    private mutating func updateProfilePicker(_ change: (inout ProfilePicker) -> Void) {
        switch mode {
        case .profiles(var picker):
            change(&picker)
            mode = .profiles(picker)
        case .profileName(var picker):
            change(&picker)
            mode = .profileName(picker)
        case .profileDelete(var picker):
            change(&picker)
            mode = .profileDelete(picker)
        default:
            break
        }
    }

    /// Back from the name field or the delete question to the picker.
    mutating func backToProfiles() {
        if let picker = profilePicker { mode = .profiles(picker) }
    }

    /// `Enter` in the name field: saves the store's overrides as a new profile, unless the name is empty or taken.
    private mutating func saveProfile() -> [ConsoleEffect] {
        guard let picker = profilePicker else { return [] }
        let name = picker.name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            statusMessage = "Type the profile's name, then Enter"
            return []
        }
        if picker.listing?.entries.contains(where: { $0.name == name }) == true {
            statusMessage = "A profile named \(name) exists: delete it first (d) or choose another name"
            return []
        }
        backToProfiles()
        return [.saveProfile(name: name)]
    }

    /// The profiles folder after a save or a delete: its new listing and what was done (or why not).
    mutating func receive(profileChange message: String, listing: ProfileListing) {
        backToProfiles()
        statusMessage = message
        receive(listing)
    }

    /// Takes in a freshly read profiles folder, keeping the highlight on the same profile.
    mutating func receive(_ listing: ProfileListing) {
        guard case .profiles(var picker) = mode else { return }
        let name = picker.selectedEntry?.name
        picker.listing = listing
        picker.selected = name.flatMap { name in listing.entries.firstIndex { $0.name == name } } ?? 0
        picker.selected = min(picker.selected, max(0, listing.entries.count - 1))
        mode = .profiles(picker)
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
        let values = Dictionary(changes.map { ($0.key, OverrideEdit($0.new)) }, uniquingKeysWith: { first, _ in first })
        return write(.profile(profile, replace: picker.replace, changes: values))
    }

    private mutating func closeProfilePicker() {
        mode = .list
    }
}
