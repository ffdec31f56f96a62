import Foundation

/// Every file Flagstaff keeps beside a store file, named in one place (docs/files.md, "The files"), with the store
/// path's symbolic links resolved once, when the layout is made.
///
/// Two places: the files that go with the file written (the lock, the journal, the bisect state, the announced
/// manifest) sit beside the file at the end of the store path's links, ``target``; the places the user's path names
/// (the launch snapshot, the remote values, the profiles folder) sit beside the path as given, ``storePath``. None
/// of these files is ever read or written through a link (``OwnFile``); only the store file follows its links.
package struct StoreLayout: Sendable, Equatable {
    /// The store path as given.
    package let storePath: String
    /// The file a write replaces: the store path, or the end of the chain of symbolic links it names.
    package let target: String

    /// The layout of a store path whose links are already resolved.
    /// - Parameters:
    ///   - storePath: the store path as given.
    ///   - target: the end of its chain of links (the store path itself when it is not a link).
    package init(storePath: String, target: String) {
        self.storePath = storePath
        self.target = target
    }

    /// The layout of a store path, following its links once (``resolveLinks(of:)``).
    /// - Throws: `OverrideStoreError.unwritable` naming the store for a link to nothing, a loop, or a link that
    ///   cannot be read.
    package static func resolving(_ storePath: String) throws -> StoreLayout {
        StoreLayout(storePath: storePath, target: try resolveLinks(of: storePath))
    }

    /// The layout of a store path as given, without looking at the file system: for the places beside the path as
    /// given (``launchSnapshot``, ``remoteFolder``, ``profilesFolder``) only.
    package static func unresolved(_ storeURL: URL) -> StoreLayout {
        StoreLayout(storePath: storeURL.path, target: storeURL.path)
    }

    // MARK: Beside the file written

    /// The cross-process lock: `<target>.lock`.
    package var lock: String { target + ".lock" }
    /// The change journal: `<target>.history.jsonl`.
    package var journal: URL { URL(fileURLWithPath: target + ".history.jsonl") }
    /// The journal kept after a rotation: `<target>.history.jsonl.1`.
    package var rotatedJournal: URL { URL(fileURLWithPath: target + ".history.jsonl.1") }
    /// The bisect session: `<target>.bisect.json`.
    package var bisectState: URL { URL(fileURLWithPath: target + ".bisect.json") }
    /// The manifest the app's registry announces: `<target>.manifest.json`.
    package var announcedManifest: URL { URL(fileURLWithPath: target + ".manifest.json") }

    // MARK: Beside the path as given

    /// The launch snapshot of `pending-restart --record` and the console's restart: `<store>.launch.json`.
    package var launchSnapshot: URL { URL(fileURLWithPath: storePath + ".launch.json") }
    /// The folder of remote values (`flagstaff fetch`, a manifest's `remote` section): `<store>.remote/`.
    package var remoteFolder: URL { URL(fileURLWithPath: storePath + ".remote", isDirectory: true) }
    /// The default profiles folder: the store's name without `.json`, plus `.profiles`, beside it.
    package var profilesFolder: URL {
        let url = URL(fileURLWithPath: storePath)
        let name = url.lastPathComponent
        let base = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        return url.deletingLastPathComponent().appendingPathComponent(base + ".profiles", isDirectory: true)
    }

    /// The end of the chain of symbolic links `storePath` names (at most 40), or `storePath` itself when it is not a
    /// link or does not exist yet (the first write creates it).
    /// - Throws: `.unwritable` naming `storePath` for a link to nothing (nothing is created), a loop, or a link that
    ///   cannot be read.
    package static func resolveLinks(of storePath: String) throws -> String {
        var current = storePath
        for _ in 0..<40 {
            let info: FileStatus?
            do throws(SystemError) {
                info = try Platform.status(atPath: current, followingLinks: false)
            } catch {
                throw OverrideStoreError.unwritable(path: storePath, reason: "cannot inspect \(current): \(error)")
            }
            guard let info else {
                if current == storePath { return storePath }  // no file yet: the first write creates it
                throw OverrideStoreError.unwritable(
                    path: storePath,
                    reason:
                        "it is a symbolic link to \(current), which does not exist; nothing was created (create the file or fix the link)"
                )
            }
            guard info.kind == .symbolicLink else { return current }
            let destination: String
            do throws(SystemError) {
                destination = try Platform.linkDestination(current)
            } catch {
                throw OverrideStoreError.unwritable(
                    path: storePath, reason: "cannot read the symbolic link \(current): \(error)")
            }
            current =
                destination.hasPrefix("/")
                ? destination : (current as NSString).deletingLastPathComponent + "/" + destination
        }
        throw OverrideStoreError.unwritable(path: storePath, reason: "too many levels of symbolic links")
    }
}
