import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Atomic replacement of the store file and clean-up after killed writers.
extension FileOverrideStore {
    /// `.<name>.<pid>.<random>.tmp`: the pid lets a later writer tell a killed writer's file from a live one's.
    static func temporaryName(for target: String) -> String {
        ".\((target as NSString).lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Removes temporary files beside `target` left by writers whose process is gone. Called under the lock, so
    /// no writer of this file is between creating and renaming its temporary file; a file whose pid is alive
    /// (or cannot be checked) is kept anyway.
    func removeAbandonedTemporaryFiles(beside target: String) {
        let directory = (target as NSString).deletingLastPathComponent
        let prefix = ".\((target as NSString).lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let middle = name.dropFirst(prefix.count).dropLast(4).split(separator: ".")
            guard middle.count == 2, let pid = Int32(middle[0]), pid > 0, UInt32(middle[1]) != nil,
                pid != getpid()
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(directory + "/" + name)
            }
        }
    }

    /// Replaces `target` with `data` atomically, keeping its owner, group and mode.
    func writeAtomically(_ data: Data, to target: String) throws {
        let directory = (target as NSString).deletingLastPathComponent
        let temporary = directory + "/" + Self.temporaryName(for: target)
        func fail(_ what: String, _ code: Int32 = errno) -> OverrideStoreError {
            .unwritable(path: path, reason: "\(what): \(errorText(code))")
        }
        var existing = stat()
        let exists = stat(target, &existing) == 0
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, exists ? 0o600 : 0o644)
        guard fd >= 0 else { throw fail("cannot create temporary file \(temporary)") }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        if exists {
            var created = stat()
            if fstat(fd, &created) == 0, created.st_uid != existing.st_uid || created.st_gid != existing.st_gid,
                fchown(fd, existing.st_uid, existing.st_gid) != 0
            {
                let error = fail(
                    "cannot keep its owner (uid \(existing.st_uid) gid \(existing.st_gid)) in the new file, so it was not changed"
                )
                unlink(temporary)
                throw error
            }
            guard fchmod(fd, existing.st_mode & 0o7777) == 0 else {
                let error = fail("cannot keep its mode in the new file, so it was not changed")
                unlink(temporary)
                throw error
            }
        }
        let written = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let count = write(fd, base.advanced(by: offset), raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard written, fsync(fd) == 0 else {
            let error = fail("cannot write \(temporary)")
            unlink(temporary)
            throw error
        }
        close(fd)
        closed = true
        guard rename(temporary, target) == 0 else {
            let error = fail("cannot replace the file")
            unlink(temporary)
            throw error
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }
}
