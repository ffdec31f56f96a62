import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The sidecar lock: who holds it, and waiting for it within ``FileOverrideStore/LockWait``.
extension FileOverrideStore {
    /// What the lock file says while a writer holds it: `<pid> <command>`.
    static let holderRecord: String = {
        var words = CommandLine.arguments
        if let program = words.first { words[0] = (program as NSString).lastPathComponent }
        var command = words.joined(separator: " ").map { $0.isNewline ? " " : $0 }
        if command.count > 200 { command = Array(command.prefix(199)) + ["…"] }
        return "\(getpid()) \(String(command))\n"
    }()

    /// Who holds the lock, as the lock file records it.
    static func holder(of fd: Int32) -> LockHolder {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return LockHolder(pid: nil, command: nil) }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = line.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let pid = Int32(first), pid > 0 else {
            return LockHolder(pid: nil, command: nil)
        }
        let command = parts.count > 1 ? TextSanitizer.sanitize(String(parts[1])) : nil
        return LockHolder(pid: pid, command: command)
    }

    func withExclusiveLock<T>(target: String, _ body: () throws -> T) throws -> T {
        let lockPath = target + ".lock"
        var fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        var writable = true
        if fd < 0, errno == EACCES {
            // Another user's lock file: a read-only descriptor locks as well; the holder is not recorded.
            fd = open(lockPath, O_RDONLY | O_CLOEXEC)
            writable = false
        }
        guard fd >= 0 else {
            throw OverrideStoreError.unwritable(
                path: path, reason: "cannot open lock file \(lockPath): \(errorText())")
        }
        defer { close(fd) }
        // Root writing another user's store leaves the lock file to the store's owner, as the store itself.
        var owner = stat()
        var lockInfo = stat()
        if geteuid() == 0, stat(target, &owner) == 0, fstat(fd, &lockInfo) == 0,
            lockInfo.st_uid != owner.st_uid || lockInfo.st_gid != owner.st_gid
        {
            _ = fchown(fd, owner.st_uid, owner.st_gid)
        }
        try acquire(fd, lockPath: lockPath, clock: lockWait.clock)
        if writable {
            _ = ftruncate(fd, 0)
            _ = Self.holderRecord.utf8CString.withUnsafeBufferPointer { pwrite(fd, $0.baseAddress, $0.count - 1, 0) }
        }
        defer {
            if writable { _ = ftruncate(fd, 0) }
            flock(fd, LOCK_UN)
        }
        return try body()
    }

    /// Takes the lock, trying every 10 ms while another process holds it, as ``lockWait`` says.
    func acquire<C: Clock<Duration>>(_ fd: Int32, lockPath: String, clock: C) throws {
        var start: C.Instant?
        var noticed = false
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return }
            let code = errno
            guard code == EWOULDBLOCK || code == EAGAIN || code == EINTR else {
                throw OverrideStoreError.unwritable(path: path, reason: "cannot lock \(lockPath): \(errorText(code))")
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
            usleep(10_000)
        }
    }
}
