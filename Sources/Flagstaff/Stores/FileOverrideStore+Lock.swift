import Foundation

/// The sidecar lock: who holds it, and waiting for it within ``FileOverrideStore/LockWait``.
extension FileOverrideStore {
    /// What the lock file says while a writer holds it: `<pid> <command>`.
    static let holderRecord: String = {
        var words = CommandLine.arguments
        if let program = words.first { words[0] = (program as NSString).lastPathComponent }
        var command = words.joined(separator: " ").map { $0.isNewline ? " " : $0 }
        if command.count > 200 { command = Array(command.prefix(199)) + ["…"] }
        return "\(Platform.processID) \(String(command))\n"
    }()

    /// Who holds the lock, as the lock file records it.
    static func holder(of fd: Int32) -> LockHolder {
        var buffer = [UInt8](repeating: 0, count: 1024)
        guard let count = try? Platform.readSome(fd, into: &buffer, at: 0), count > 0 else {
            return LockHolder(pid: nil, command: nil)
        }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = line.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let pid = Int32(first), pid > 0 else {
            return LockHolder(pid: nil, command: nil)
        }
        let command = parts.count > 1 ? TextSanitizer.sanitize(String(parts[1])) : nil
        return LockHolder(pid: pid, command: command)
    }

    /// Runs `body` holding the lock of `target` (the store file, at the end of its links): `<target>.lock`, opened
    /// never through a link (``OwnFile``), created if needed.
    func withExclusiveLock<T>(_ layout: StoreLayout, wait: LockWait, _ body: () throws -> T) throws -> T {
        let (fd, writable) = try openLockFile(layout)
        defer { Platform.closeFile(fd) }
        try acquire(fd, lockPath: layout.lock, wait: wait, clock: wait.clock)
        if writable {
            try? Platform.truncateFile(fd, to: 0)
            try? Array(Self.holderRecord.utf8).withUnsafeBytes { try Platform.writeAll(fd, $0, at: 0) }
        }
        defer {
            if writable { try? Platform.truncateFile(fd, to: 0) }
            Platform.unlock(fd)
        }
        return try body()
    }

    /// Opens (creating) the lock file of `target`, read-write, or read-only when it is another user's (a read-only
    /// descriptor locks as well; the holder is then not recorded). Root writing another user's store leaves the
    /// lock file to the store's owner, as the store itself.
    /// - Throws: `.unwritable` naming the lock file: a link, not a regular file, or the system's reason (for a
    ///   folder this user may not create files in, the folder's mode and owner).
    private func openLockFile(_ layout: StoreLayout) throws -> (descriptor: Int32, writable: Bool) {
        let lockPath = layout.lock
        let target = layout.target
        func refuse(_ failure: OwnFile.Failure) -> OverrideStoreError {
            .unwritable(path: path, reason: "cannot use the lock file \(lockPath): \(failure.reason)")
        }
        let store = try? Platform.status(atPath: target, followingLinks: true)
        let permissions = Self.lockPermissions(forStore: store?.permissions)
        do throws(OwnFile.Failure) {
            let fd = try OwnFile.openForWriting(lockPath, create: true, permissions: permissions)
            let lock = try? Platform.status(ofDescriptor: fd)
            if Platform.effectiveUserID == 0, let store, let lock,
                lock.owner != store.owner || lock.group != store.group
            {
                try? Platform.changeOwner(fd, owner: store.owner, group: store.group)
            }
            // A lock file made by an earlier version (0644), or under another umask: narrowed to who may write the
            // store, by its owner (or root), through the descriptor already checked.
            if let lock, lock.permissions & ~permissions & 0o777 != 0,
                lock.owner == Platform.effectiveUserID || Platform.effectiveUserID == 0
            {
                try? Platform.changePermissions(fd, to: lock.permissions & permissions)
            }
            return (fd, true)
        } catch {
            guard let system = error.system, system.isPermissionDenied || system.isReadOnlyFileSystem else {
                throw refuse(error)
            }
            guard (try? Platform.status(atPath: lockPath, followingLinks: false)) != nil else {
                // No lock file, and this user may not create one: the folder is what refuses.
                throw OverrideStoreError.unwritable(
                    path: path,
                    reason: "cannot create the lock file \(lockPath): \(system)\(Self.folderDetail(of: target))")
            }
            let fd: Int32
            let status: FileStatus
            do throws(SystemError) {
                fd = try Platform.openFile(lockPath, .readOnly, [.noFollow, .nonBlocking])
            } catch {
                let reason = error.isSymbolicLink ? OwnFile.linkClause(lockPath) : error.description
                throw refuse(OwnFile.Failure(path: lockPath, reason: reason, system: error))
            }
            do throws(SystemError) {
                status = try Platform.status(ofDescriptor: fd)
            } catch {
                Platform.closeFile(fd)
                throw refuse(OwnFile.Failure(path: lockPath, reason: error.description, system: error))
            }
            if let refusal = OwnFile.refusal(for: status, at: lockPath) {
                Platform.closeFile(fd)
                throw refuse(OwnFile.Failure(path: lockPath, reason: refusal, system: nil))
            }
            return (fd, false)
        }
    }

    /// The lock file's mode: read and write for each class (owner, group, others) that may write the store, nothing
    /// for the others. `flock` needs only an open descriptor, read-only included, so anyone who can open the lock
    /// file can hold it and stop every write to the store; only those who may write the store can open it.
    /// - Parameter store: the store's permission bits, or `nil` when it does not exist yet (it will be this user's).
    static func lockPermissions(forStore store: UInt32?) -> UInt32 {
        guard let store else { return 0o600 }
        var permissions: UInt32 = 0
        for shift: UInt32 in [6, 3, 0] where store & (0o2 << shift) != 0 { permissions |= 0o6 << shift }
        return permissions == 0 ? 0o600 : permissions
    }

    /// ` (the folder /d is mode 555, owned by uid 0 gid 0; this process runs as uid 1000)`, or nothing when the
    /// folder cannot be inspected.
    static func folderDetail(of file: String) -> String {
        let folder = (file as NSString).deletingLastPathComponent
        guard let status = try? Platform.status(atPath: folder.isEmpty ? "." : folder, followingLinks: true) else {
            return ""
        }
        return
            " (the folder \(folder) is mode \(String(status.permissions, radix: 8)), owned by uid \(status.owner) gid \(status.group); this process runs as uid \(Platform.effectiveUserID))"
    }

    /// Takes the lock, trying every 10 ms while another process holds it, as `wait` says.
    func acquire<C: Clock<Duration>>(_ fd: Int32, lockPath: String, wait lockWait: LockWait, clock: C) throws {
        var start: C.Instant?
        var noticed = false
        while true {
            do {
                if try Platform.tryLockExclusive(fd) { return }
            } catch {
                throw OverrideStoreError.unwritable(path: path, reason: "cannot lock \(lockPath): \(error)")
            }
            let now = clock.now
            let waited = start.map { $0.duration(to: now) } ?? .zero
            if start == nil { start = now }
            if !noticed, waited >= lockWait.noticeAfter, let onWaiting = lockWait.onWaiting {
                noticed = true
                onWaiting(Self.holder(of: fd), waited)
            }
            if let timeout = lockWait.timeout, waited >= timeout {
                throw OverrideStoreError.lockTimeout(path: path, holder: Self.holder(of: fd), waited: timeout)
            }
            Platform.sleep(microseconds: 10_000)
        }
    }
}
