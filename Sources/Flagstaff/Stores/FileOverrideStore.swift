import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Overrides in a small versioned JSON file shared by every process that opens it (the app, the console,
/// scripts): `{"version":1,"overrides":{"list.infiniteScroll":"on"}}`.
///
/// - Writes are atomic (temporary file, `fsync`, `rename`, `fsync` of the directory): a reader or a crash
///   never sees half a file.
/// - Read-modify-write runs under an exclusive `flock` on a sidecar `<file>.lock`, so concurrent writers in
///   several processes lose nothing.
/// - Overrides for keys the current registry does not declare are kept.
/// - A missing file means no overrides. A corrupt or unreadable file throws an error with the path and the
///   reason and is never overwritten.
/// - ``changeSignature()`` (inode, size, modification time) lets a registry notice other processes' writes.
public final class FileOverrideStore: OverrideStore {
    /// The file.
    public let url: URL
    private var path: String { url.path }
    private var lockPath: String { url.path + ".lock" }

    /// Creates a store for a file (created at the first write, with its directory).
    /// - Parameter url: a `file:` URL.
    /// - Throws: `OverrideStoreError.invalidLocation` if the URL is not a file URL or names a directory.
    public init(url: URL) throws {
        guard url.isFileURL else {
            throw OverrideStoreError.invalidLocation(url.absoluteString, reason: "expected a file path or file: URL")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw OverrideStoreError.invalidLocation(
                url.path, reason: "it is a directory; expected a file such as overrides.json")
        }
        self.url = url.standardizedFileURL
    }

    /// The default location for a registry's overrides: `$XDG_CONFIG_HOME/flagstaff/<name>.json`, else
    /// `~/.config/flagstaff/<name>.json`. Characters other than letters, digits, `-`, `_` and `.` in `name`
    /// become `-`.
    /// - Parameter name: the registry or app name.
    /// - Returns: the file URL (not created).
    public static func defaultURL(name: String) -> URL {
        let safe = String(name.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" })
        let file = (safe.isEmpty || safe.allSatisfy { $0 == "." } ? "overrides" : safe) + ".json"
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("flagstaff", isDirectory: true).appendingPathComponent(file)
    }

    /// Reads the file. A missing file means no overrides.
    /// - Throws: `OverrideStoreError.unreadable` or `.corrupt`, naming the file.
    public func load() throws -> [String: OverrideState] {
        guard let data = try readFile() else { return [:] }
        return try OverrideFileFormat.decode(data, path: path)
    }

    /// Read-modify-write under the cross-process lock; writes only if something changed.
    /// - Throws: `OverrideStoreError` naming the file; a corrupt file is not overwritten.
    public func update(_ changes: [String: OverrideState]) throws -> [String: OverrideState] {
        try ensureDirectory()
        return try withExclusiveLock {
            var overrides = try load()
            let before = overrides
            for (key, state) in changes {
                overrides[key] = state == .featureDefault ? nil : state
            }
            if overrides != before {
                try writeAtomically(OverrideFileFormat.encode(overrides))
            }
            return overrides
        }
    }

    /// Inode, size and modification time of the file (all zero when it does not exist).
    public func changeSignature() -> StoreSignature? {
        var info = stat()
        guard stat(path, &info) == 0 else { return StoreSignature([0, 0, 0, 0]) }
        return StoreSignature([
            Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec),
        ])
    }

    // MARK: File operations

    private func readFile() throws -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw OverrideStoreError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw OverrideStoreError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            data.append(buffer, count: count)
            if data.count > 64 * 1024 * 1024 {
                throw OverrideStoreError.corrupt(
                    path: path, reason: "larger than 64 MiB; an override file is a few kilobytes")
            }
        }
        return data
    }

    private func ensureDirectory() throws {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw OverrideStoreError.unwritable(
                path: path, reason: "cannot create directory \(directory.path): \(error.localizedDescription)")
        }
    }

    private func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw OverrideStoreError.unwritable(
                path: path, reason: "cannot open lock file \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw OverrideStoreError.unwritable(
                path: path, reason: "cannot lock \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    private func writeAtomically(_ data: Data) throws {
        let directory = url.deletingLastPathComponent().path
        let temporary = "\(directory)/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        func fail(_ what: String) -> OverrideStoreError {
            .unwritable(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
        }
        var mode: mode_t = 0o644
        var existing = stat()
        if stat(path, &existing) == 0 { mode = existing.st_mode & 0o777 }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw fail("cannot create temporary file \(temporary)") }
        var closed = false
        defer {
            if !closed { close(fd) }
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
        guard rename(temporary, path) == 0 else {
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
