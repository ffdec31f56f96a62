import Flagstaff

/// The profiles folder as the profile picker shows it: every profile with what applying it would change, read
/// by ``ProfileCatalog`` when the picker opens (and again when the store changes while it is open).
package struct ProfileListing: Sendable, Equatable {
    /// The folder (for the picker's title and its "no profiles" message).
    package var folder: String
    /// The profiles, sorted by name; unreadable ones included with their problem.
    package var entries: [ProfileSummary]
    /// Why the folder could not be listed, or `nil`.
    package var problem: String?

    /// Creates a listing.
    package init(folder: String, entries: [ProfileSummary], problem: String? = nil) {
        self.folder = folder
        self.entries = entries
        self.problem = problem
    }
}

/// One profile in the picker: its diff against the store as it is now, or why it cannot be read.
package struct ProfileSummary: Sendable, Equatable {
    /// The profile's name.
    package var name: String
    /// The profile, or `nil` when its file cannot be read (``problem`` says why).
    package var profile: Profile?
    /// Why the profile cannot be read (file and JSON path), or `nil`.
    package var problem: String?
    /// What a merge would change, by key.
    package var mergeChanges: [ProfileChange]
    /// What a replace would change, by key.
    package var replaceChanges: [ProfileChange]
    /// The keys the profile mentions that the registry does not declare (stored as given when applied).
    package var unknownKeys: Set<String>

    /// A readable profile and its diffs.
    package init(
        profile: Profile, mergeChanges: [ProfileChange], replaceChanges: [ProfileChange], unknownKeys: Set<String>
    ) {
        name = profile.name
        self.profile = profile
        problem = nil
        self.mergeChanges = mergeChanges
        self.replaceChanges = replaceChanges
        self.unknownKeys = unknownKeys
    }

    /// A profile that cannot be read.
    package init(name: String, problem: String) {
        self.name = name
        profile = nil
        self.problem = problem
        mergeChanges = []
        replaceChanges = []
        unknownKeys = []
    }

    /// The changes of a merge or a replace.
    package func changes(replace: Bool) -> [ProfileChange] { replace ? replaceChanges : mergeChanges }
}

/// One key a profile would change: the stored override before and after (`nil`: none).
package struct ProfileChange: Sendable, Equatable {
    /// The override key.
    package var key: String
    /// The stored override now, or `nil`.
    package var old: OverrideValue?
    /// The stored override after applying, or `nil` (removed).
    package var new: OverrideValue?

    /// Creates a change.
    package init(key: String, old: OverrideValue?, new: OverrideValue?) {
        self.key = key
        self.old = old
        self.new = new
    }
}

/// The profile picker (`p`): the listing, the highlighted profile, and whether Enter merges or replaces.
package struct ProfilePicker: Sendable, Equatable {
    /// What the folder holds (`nil` while it is being read).
    package var listing: ProfileListing?
    /// The index of the highlighted profile.
    package var selected = 0
    /// Whether Enter replaces (clears the registry's other overrides) instead of merging.
    package var replace = false
    /// The name typed to save the store's overrides under (``ConsoleMode/profileName``).
    package var name = ""

    /// The highlighted profile, if any.
    package var selectedEntry: ProfileSummary? {
        guard let entries = listing?.entries, entries.indices.contains(selected) else { return nil }
        return entries[selected]
    }
}
