import Foundation

/// A folder of profiles: `<name>.json` files in the override file format, plain files a team can commit.
///
/// The default folder is beside the store: `overrides.json` → `overrides.profiles/`. Names are validated
/// (letters, digits, `-`, `_`, `.`; not starting with `.`; at most 100 characters) so a name can never reach
/// outside the folder. Saving is atomic (temporary file and rename). A profile file is never read or written
/// through a symbolic link (the folder itself may be one: a team's committed folder).
package struct ProfileLibrary: Sendable {
    /// The folder.
    package let folder: URL
    /// Whether the first save creates the folder (the default folder beside the store) or refuses a missing one
    /// (a folder the user named, which must exist, as an explicit store's folder must).
    package let createsFolder: Bool

    /// A library in `folder`.
    /// - Parameters:
    ///   - folder: the profiles folder.
    ///   - createsFolder: whether the first save creates the folder (`true`, for the default folder beside the
    ///     store) or a save into a missing folder fails (`false`, for a folder the user named).
    package init(folder: URL, createsFolder: Bool = true) {
        self.folder = folder.standardizedFileURL
        self.createsFolder = createsFolder
    }

    /// The default profiles folder of a store file: its name without `.json`, plus `.profiles`, beside it.
    /// - Parameter storeURL: the store file.
    /// - Returns: the folder (not created).
    package static func defaultFolder(forStore storeURL: URL) -> URL {
        StoreLayout.unresolved(storeURL).profilesFolder
    }

    /// Checks a profile name.
    /// - Throws: ``ProfileError`` saying what is allowed.
    package static func validate(name: String) throws(ProfileError) {
        func refuse(_ reason: String) -> ProfileError { ProfileError(code: .invalidName(name, reason: reason)) }
        guard !name.isEmpty else { throw refuse("it is empty") }
        guard name.count <= 100 else { throw refuse("longer than 100 characters") }
        // Traversal first, named as such: `../x` is refused for reaching outside the folder, not for its dot.
        if name.contains("/") || name.contains("\\") {
            throw refuse("it may not contain a path separator ('/' or '\\'): a profile stays in the profiles folder")
        }
        if name == "." || name.hasPrefix("..") {
            throw refuse("'..' would name a path outside the profiles folder")
        }
        guard !name.hasPrefix(".") else { throw refuse("it may not start with '.' (hidden files are not profiles)") }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw refuse("use letters, digits, '-', '_' and '.'")
        }
    }

    /// The file of a profile.
    /// - Throws: ``ProfileError`` for an invalid name.
    package func url(for name: String) throws(ProfileError) -> URL {
        try Self.validate(name: name)
        return folder.appendingPathComponent(name + ".json")
    }

    /// The names of the profiles in the folder, sorted (files whose name is not a valid profile name are
    /// skipped). A missing folder has none when ``createsFolder`` (the default folder, made by the first save);
    /// otherwise (a folder someone named) it is an error, as it is for ``save(_:)``.
    /// - Throws: ``ProfileError`` when the folder cannot be read, or is missing and not ``createsFolder``.
    package func names() throws(ProfileError) -> [String] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
                guard createsFolder else { throw missingFolder }
                return []
            }
            throw ProfileError(code: .io(path: folder.path, reason: "cannot list the profiles folder"))
        }
        return entries.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.filter {
            (try? Self.validate(name: $0)) != nil
        }.sorted()
    }

    /// Reads a profile.
    /// - Throws: ``ProfileError``: invalid name, not found, unreadable, or malformed (with the JSON path).
    package func load(_ name: String) throws(ProfileError) -> Profile {
        let file = try url(for: name)
        let read: Data?
        do throws(BoundedFileReader.Failure) {
            read = try BoundedFileReader.read(
                file.path, limit: FileOverrideStore.defaultSizeLimit, followingLinks: false)
        } catch {
            switch error {
            case .unreadable(let reason):
                throw ProfileError(code: .io(path: file.path, reason: "cannot read it: \(reason)"))
            case .notAFile(let reason): throw ProfileError(code: .io(path: file.path, reason: reason))
            case .tooLarge:
                throw ProfileError(
                    code: .io(path: file.path, reason: "larger than 64 MiB; a profile is a few kilobytes"))
            }
        }
        guard let data = read else { throw ProfileError(code: .notFound(name, folder: folder.path)) }
        let rules = OverrideFileFormat.Rules(acceptsDefault: true, rejectsUnknownFields: false)
        do {
            let contents = try OverrideFileFormat.decodeContents(data, file: file.path, rules: rules)
            return Profile(name: name, overrides: contents.overrides, removals: contents.removals)
        } catch {
            throw ProfileError(code: .malformed(error))
        }
    }

    /// Writes a profile (replacing one of the same name), atomically, never through a link; creates the folder
    /// when ``createsFolder``.
    /// - Returns: whether a profile of that name was replaced.
    /// - Throws: ``ProfileError`` for an invalid name or a failed write.
    @discardableResult
    package func save(_ profile: Profile) throws(ProfileError) -> Bool {
        let file = try url(for: profile.name)
        var text = String(decoding: OverrideFileFormat.encode(profile.overrides), as: UTF8.self)
        if !profile.removals.isEmpty {
            // Keep "default" entries: written back into the overrides object, sorted with the rest.
            let all = profile.overrides.merging(
                profile.removals.filter { profile.overrides[$0] == nil }.map { ($0, OverrideValue(string: "default")) }
            ) { value, _ in value }
            text = String(decoding: OverrideFileFormat.encode(all), as: UTF8.self)
        }
        let existed = (try? Platform.status(atPath: file.path, followingLinks: false)) != nil
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard createsFolder else { throw missingFolder }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw ProfileError(
                    code: .io(path: folder.path, reason: "cannot create the folder: \(error.localizedDescription)"))
            }
        } else if !isFolder.boolValue {
            throw ProfileError(code: .io(path: folder.path, reason: "it is not a folder"))
        }
        do throws(OwnFile.Failure) {
            try OwnFile.writeAtomically(Data(text.utf8), to: file.path)
        } catch {
            throw ProfileError(code: .io(path: file.path, reason: "cannot write it: \(error.reason)"))
        }
        return existed
    }

    /// The error for a missing folder that is not ``createsFolder``.
    private var missingFolder: ProfileError {
        ProfileError(
            code: .io(
                path: folder.path,
                reason:
                    "the profiles folder does not exist; create it first (only the default folder beside the store is created)"
            ))
    }

    /// Deletes a profile.
    /// - Throws: ``ProfileError``: invalid name, not found, or the file cannot be removed.
    package func delete(_ name: String) throws(ProfileError) {
        let file = try url(for: name)
        do throws(SystemError) {
            try Platform.removeFile(file.path)
        } catch {
            if error.isNotFound { throw ProfileError(code: .notFound(name, folder: folder.path)) }
            throw ProfileError(code: .io(path: file.path, reason: "cannot delete it: \(error)"))
        }
    }
}
