import Flagstaff
import Foundation

/// Reads a profiles folder for the profile picker: the console's only file reads besides the store.
package enum ProfileCatalog {
    /// The profiles folder a registry's console uses when none is given: beside the registry's file store
    /// (`overrides.json` → `overrides.profiles/`), or `nil` when its store is not a file.
    package static func defaultLibrary(for registry: AnyFeatureRegistry) -> ProfileLibrary? {
        guard let store = registry.fileStore else { return nil }
        return ProfileLibrary(folder: ProfileLibrary.defaultFolder(forStore: store.url))
    }

    /// Lists the profiles of `library` with what applying each to `registry` would change now. Unreadable
    /// profiles are listed with their problem; nothing here throws.
    /// - Parameters:
    ///   - library: the profiles folder.
    ///   - registry: the registry the profiles would be applied to.
    /// - Returns: the listing.
    package static func listing(of library: ProfileLibrary, for registry: AnyFeatureRegistry) -> ProfileListing {
        let folder = library.folder.path
        let names: [String]
        do {
            names = try library.names()
        } catch {
            return ProfileListing(folder: folder, entries: [], problem: error.description)
        }
        let current = registry.storedOverrides
        let declared: (String) -> Bool = { registry.feature(forKey: $0) != nil }
        let entries = names.map { name -> ProfileSummary in
            let profile: Profile
            do {
                profile = try library.load(name)
            } catch {
                return ProfileSummary(name: name, problem: "\(error)")
            }
            func diff(replace: Bool) -> [ProfileChange] {
                profile.changes(from: current, replace: replace, clearable: declared).map { key, new in
                    ProfileChange(key: key, old: current[key], new: new.value)
                }.sorted { $0.key < $1.key }
            }
            return ProfileSummary(
                profile: profile, mergeChanges: diff(replace: false), replaceChanges: diff(replace: true),
                unknownKeys: Set(profile.keys.filter { !declared($0) }))
        }
        return ProfileListing(folder: folder, entries: entries)
    }
}
