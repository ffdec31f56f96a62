import Foundation

/// The rules for the files Flagstaff keeps for itself beside a store or in a profiles folder: the lock, the
/// journal and its rotation, the bisect state, profiles, temporary files and the launch snapshot (docs/files.md).
///
/// - Never followed when a link: opened with `O_NOFOLLOW`; a link found in one's place is refused, naming where
///   it points, and nothing is truncated, created, chowned or chmodded through it.
/// - Opened for writing only when it is a regular file with one name: a FIFO, a device, a directory or a file
///   with other hard links is refused, saying what was found.
/// - Replaced atomically (``writeAtomically(_:to:permissions:ownerOf:)``): a new temporary file in the same
///   folder (`O_CREAT | O_EXCL`, which never follows a link), `fsync`, then `rename` over the name, which
///   replaces a link rather than writing through it (a link there is refused all the same, so that nobody's
///   link silently turns into a file). Temporary files that killed writers left are removed first.
package enum OwnFile {
    /// Why one of Flagstaff's own files could not be opened, read or written: the file and the reason.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The file.
        package let path: String
        /// What went wrong, as a clause (`it is a symbolic link to /etc/passwd; …`, `Permission denied`).
        package let reason: String
        /// The system's error, when there was one.
        package let system: SystemError?

        /// `<path>: <reason>`.
        package var description: String { "\(path): \(reason)" }
    }

    /// `it is a symbolic link (to /x); …`: the clause for a link where Flagstaff keeps one of its own files.
    package static func linkClause(_ path: String) -> String {
        let destination = (try? Platform.linkDestination(path)).map { " (to \($0))" } ?? ""
        return
            "it is a symbolic link\(destination); Flagstaff never follows a link where it keeps its own files (remove the link)"
    }

    /// What is wrong with a file found at `path` when Flagstaff reads it (`nil`: a regular file, fine).
    package static func refusal(for status: FileStatus, at path: String) -> String? {
        switch status.kind {
        case .regular: nil
        case .symbolicLink: linkClause(path)
        case .characterDevice, .blockDevice: "it is a device (\(status.kind.description)), not a file"
        case .directory: "it is a directory, not a file"
        default: "it is \(status.kind.description), not a file"
        }
    }

    /// What is wrong with a file found at `path` when Flagstaff writes it: ``refusal(for:at:)``, or other hard
    /// links (writing would change the file under its other names too).
    package static func writeRefusal(for status: FileStatus, at path: String) -> String? {
        if let refusal = refusal(for: status, at: path) { return refusal }
        guard status.linkCount <= 1 else {
            return
                "it has \(status.linkCount) hard links; Flagstaff writes its own files only under one name (remove the other links)"
        }
        return nil
    }

    /// Opens one of Flagstaff's own files for writing (and reading), never through a link.
    /// - Parameters:
    ///   - path: the file.
    ///   - create: whether to create it when it does not exist (with `permissions`).
    ///   - append: whether every write goes to the end.
    /// - Returns: the descriptor.
    /// - Throws: ``Failure``: a link, a FIFO, a device, a directory, a file with other hard links, or the
    ///   system's error (``Failure/system``).
    package static func openForWriting(
        _ path: String, create: Bool, append: Bool = false, permissions: UInt32 = 0o644
    ) throws(Failure) -> Int32 {
        var options: Platform.OpenOptions = [.noFollow, .nonBlocking]
        if create { options.insert(.create) }
        if append { options.insert(.append) }
        let descriptor: Int32
        do throws(SystemError) {
            descriptor = try Platform.openFile(path, .readWrite, options, permissions: permissions)
        } catch {
            if error.isSymbolicLink { throw Failure(path: path, reason: linkClause(path), system: error) }
            if error.isDirectory { throw Failure(path: path, reason: "it is a directory, not a file", system: error) }
            throw Failure(path: path, reason: error.description, system: error)
        }
        try check(descriptor, path: path)
        return descriptor
    }

    /// Checks that an open descriptor of one of Flagstaff's own files may be written; closes it and throws if not.
    package static func check(_ descriptor: Int32, path: String) throws(Failure) {
        let status: FileStatus
        do throws(SystemError) {
            status = try Platform.status(ofDescriptor: descriptor)
        } catch {
            Platform.closeFile(descriptor)
            throw Failure(path: path, reason: error.description, system: error)
        }
        if let refusal = writeRefusal(for: status, at: path) {
            Platform.closeFile(descriptor)
            throw Failure(path: path, reason: refusal, system: nil)
        }
    }

    /// Refuses a link or anything but a regular file with one name at `path` before it is replaced; nothing there
    /// is fine.
    package static func checkReplaceable(_ path: String) throws(Failure) {
        let found: FileStatus?
        do throws(SystemError) {
            found = try Platform.status(atPath: path, followingLinks: false)
        } catch {
            throw Failure(path: path, reason: error.description, system: error)
        }
        if let found, let refusal = writeRefusal(for: found, at: path) {
            throw Failure(path: path, reason: refusal, system: nil)
        }
    }

    /// `.<name>.<pid>.<random>.tmp`, the temporary file that replaces `path`: the pid lets a later writer tell a
    /// killed writer's file from a live one's.
    package static func temporaryName(for path: String) -> String {
        ".\((path as NSString).lastPathComponent).\(Platform.processID).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Removes the temporary files of `path` (``temporaryName(for:)``) left by writers whose process is gone. A file
    /// whose pid is alive, or cannot be checked, is kept: its writer may be between creating and renaming it.
    /// Removing a name never follows a link. Every atomic replacement calls it first, the store's (under its lock)
    /// and ``writeAtomically(_:to:permissions:ownerOf:)``'s.
    package static func removeAbandonedTemporaryFiles(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        let prefix = ".\((path as NSString).lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let middle = name.dropFirst(prefix.count).dropLast(4).split(separator: ".")
            guard middle.count == 2, let pid = Int32(middle[0]), pid > 0, UInt32(middle[1]) != nil,
                pid != Platform.processID
            else { continue }
            if Platform.processIsGone(pid) {
                try? Platform.removeFile(directory + "/" + name)
            }
        }
    }

    /// Replaces one of Flagstaff's own files with `data` atomically: a new temporary file beside it (`O_EXCL`),
    /// `fsync`, `rename`, `fsync` of the folder. The folder must exist.
    /// - Parameters:
    ///   - data: the new contents.
    ///   - path: the file.
    ///   - permissions: the new file's permission bits.
    ///   - ownerOf: a file whose owner and group the new file gets when this process runs as root (the store, so
    ///     that root writing a user's store leaves files that user can write), or `nil`.
    /// - Throws: ``Failure`` when a link or something else than a regular file is in the file's place, or the
    ///   system's error; the file is then unchanged.
    package static func writeAtomically(
        _ data: Data, to path: String, permissions: UInt32 = 0o644, ownerOf model: String? = nil
    ) throws(Failure) {
        try checkReplaceable(path)
        let folder = (path as NSString).deletingLastPathComponent
        removeAbandonedTemporaryFiles(of: path)
        let temporary = (folder.isEmpty ? "" : folder + "/") + temporaryName(for: path)
        func failure(_ what: String, _ error: SystemError) -> Failure {
            Failure(path: path, reason: "\(what): \(error.description)", system: error)
        }
        let descriptor: Int32
        do throws(SystemError) {
            descriptor = try Platform.openFile(
                temporary, .writeOnly, [.create, .exclusive, .noFollow], permissions: permissions)
        } catch {
            throw failure("cannot create the temporary file \(temporary)", error)
        }
        do throws(SystemError) {
            if let model, Platform.effectiveUserID == 0,
                let owner = try? Platform.status(atPath: model, followingLinks: true)
            {
                try Platform.changeOwner(descriptor, owner: owner.owner, group: owner.group)
            }
            var writeError: SystemError?
            data.withUnsafeBytes { raw in
                do throws(SystemError) { try Platform.writeAll(descriptor, raw) } catch { writeError = error }
            }
            if let writeError { throw writeError }
            try Platform.syncFile(descriptor)
            Platform.closeFile(descriptor)
        } catch {
            Platform.closeFile(descriptor)
            try? Platform.removeFile(temporary)
            throw failure("cannot write \(temporary)", error)
        }
        do throws(SystemError) {
            try Platform.renameItem(temporary, to: path)
        } catch {
            try? Platform.removeFile(temporary)
            throw failure("cannot replace the file", error)
        }
        Platform.syncDirectory(folder.isEmpty ? "." : folder)
    }
}
