import Foundation

/// Atomic replacement of the store file.
extension FileOverrideStore {
    /// Replaces `target` with `data` atomically, keeping its owner, group and mode. The temporary file is new
    /// (`O_EXCL`, never through a link); `rename` replaces the name, never writing through a link.
    func writeAtomically(_ data: Data, to target: String) throws {
        let directory = (target as NSString).deletingLastPathComponent
        let temporary = directory + "/" + OwnFile.temporaryName(for: target)
        func fail(_ what: String, _ error: SystemError) -> OverrideStoreError {
            .unwritable(path: path, reason: "\(what): \(error)")
        }
        let existing = try? Platform.status(atPath: target, followingLinks: false)
        let fd: Int32
        do throws(SystemError) {
            fd = try Platform.openFile(
                temporary, .writeOnly, [.create, .exclusive, .noFollow], permissions: existing == nil ? 0o644 : 0o600)
        } catch {
            throw fail("cannot create temporary file \(temporary)", error)
        }
        var closed = false
        defer {
            if !closed { Platform.closeFile(fd) }
        }
        func abandon(_ error: OverrideStoreError) -> OverrideStoreError {
            try? Platform.removeFile(temporary)
            return error
        }
        if let existing {
            let created = try? Platform.status(ofDescriptor: fd)
            if let created, created.owner != existing.owner || created.group != existing.group {
                do throws(SystemError) {
                    try Platform.changeOwner(fd, owner: existing.owner, group: existing.group)
                } catch {
                    throw abandon(
                        fail(
                            "cannot keep its owner (uid \(existing.owner) gid \(existing.group)) in the new file, so it was not changed",
                            error))
                }
            }
            do throws(SystemError) {
                try Platform.changePermissions(fd, to: existing.permissions)
            } catch {
                throw abandon(fail("cannot keep its mode in the new file, so it was not changed", error))
            }
        }
        var writeError: SystemError?
        data.withUnsafeBytes { raw in
            do throws(SystemError) { try Platform.writeAll(fd, raw) } catch { writeError = error }
        }
        if writeError == nil {
            do throws(SystemError) { try Platform.syncFile(fd) } catch { writeError = error }
        }
        if let writeError { throw abandon(fail("cannot write \(temporary)", writeError)) }
        Platform.closeFile(fd)
        closed = true
        do throws(SystemError) {
            try Platform.renameItem(temporary, to: target)
        } catch {
            throw abandon(fail("cannot replace the file", error))
        }
        Platform.syncDirectory(directory)
    }
}
