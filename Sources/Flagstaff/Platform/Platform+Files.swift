#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `stat` says about a file, in the same Swift types on every platform.
package struct FileStatus: Sendable, Equatable {
    /// The kinds of file POSIX names.
    package enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown

        /// `a regular file`, `a FIFO (named pipe)`, … for messages.
        package var description: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a directory"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO (named pipe)"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .unknown: "a special file"
            }
        }
    }

    package var kind: Kind
    /// The permission bits, set-id and sticky bits (`st_mode & 0o7777`).
    package var permissions: UInt32
    package var owner: UInt32
    package var group: UInt32
    package var size: Int64
    package var inode: UInt64
    /// How many hard links name the file.
    package var linkCount: UInt64
    /// The modification time: seconds and nanoseconds since 1970.
    package var modifiedSeconds: Int64
    package var modifiedNanoseconds: Int64

    init(_ info: stat) {
        // The file-type bits of `st_mode` have the same values on every POSIX system.
        switch UInt32(info.st_mode) & 0o170000 {
        case 0o100000: kind = .regular
        case 0o040000: kind = .directory
        case 0o120000: kind = .symbolicLink
        case 0o010000: kind = .fifo
        case 0o020000: kind = .characterDevice
        case 0o060000: kind = .blockDevice
        case 0o140000: kind = .socket
        default: kind = .unknown
        }
        permissions = UInt32(info.st_mode) & 0o7777
        owner = UInt32(info.st_uid)
        group = UInt32(info.st_gid)
        size = Int64(info.st_size)
        inode = UInt64(info.st_ino)
        linkCount = UInt64(info.st_nlink)
        #if canImport(Darwin)
        modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
    }
}

extension Platform {
    /// How a file is opened for reading and writing.
    package enum FileAccess: Sendable {
        case readOnly, writeOnly, readWrite
    }

    /// What else `openFile` does.
    package struct OpenOptions: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// Create the file if it does not exist (`O_CREAT`).
        package static let create = OpenOptions(rawValue: O_CREAT)
        /// With `create`: fail if the path exists, as a file, a directory or a link (`O_EXCL`).
        package static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// Every write goes to the end (`O_APPEND`).
        package static let append = OpenOptions(rawValue: O_APPEND)
        /// Fail with ``SystemError/isSymbolicLink`` if the last part of the path is a symbolic link (`O_NOFOLLOW`).
        package static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// Do not wait in `open` (a FIFO without a writer; `O_NONBLOCK`); reads and writes of regular files are
        /// unaffected.
        package static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// Fail unless the path is a directory (`O_DIRECTORY`).
        package static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    /// Opens a file, close-on-exec.
    /// - Returns: the descriptor.
    package static func openFile(
        _ path: String, _ access: FileAccess, _ options: OpenOptions = [], permissions: UInt32 = 0o644
    ) throws(SystemError) -> Int32 {
        let accessFlag =
            switch access {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        let flags = accessFlag | options.rawValue | O_CLOEXEC
        return try retrying { open(path, flags, mode_t(permissions)) }
    }

    /// Closes a descriptor.
    package static func closeFile(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Reads what is there, up to `buffer.count` bytes, at the descriptor's position.
    /// - Returns: the number of bytes read; 0 at the end.
    package static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer)
        throws(SystemError) -> Int
    {
        try retrying { read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `buffer.count` bytes at `offset`, without moving the descriptor's position.
    /// - Returns: the number of bytes read; 0 at the end.
    package static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
        throws(SystemError) -> Int
    {
        try retrying { pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Reads up to `buffer.count` bytes into an array, at `offset` or else at the descriptor's position.
    /// - Returns: the number of bytes read; 0 at the end.
    package static func readSome(_ descriptor: Int32, into buffer: inout [UInt8], at offset: Int? = nil)
        throws(SystemError) -> Int
    {
        try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in
                if let offset { return try readSome(descriptor, into: raw, at: offset) }
                return try readSome(descriptor, into: raw)
            }
        }.get()
    }

    /// Writes every byte, at the descriptor's position (the end, with ``OpenOptions/append``).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let base = bytes.baseAddress.map { $0 + offset }
            offset += try retrying { write(descriptor, base, bytes.count - offset) }
        }
    }

    /// Writes every byte at `offset`, without moving the descriptor's position.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
        throws(SystemError)
    {
        var done = 0
        while done < bytes.count {
            let base = bytes.baseAddress.map { $0 + done }
            done += try retrying { pwrite(descriptor, base, bytes.count - done, off_t(offset + done)) }
        }
    }

    /// Cuts (or extends) the file to `size` bytes.
    package static func truncateFile(_ descriptor: Int32, to size: Int) throws(SystemError) {
        _ = try retrying { ftruncate(descriptor, off_t(size)) }
    }

    /// Flushes the file's data and metadata to the device.
    package static func syncFile(_ descriptor: Int32) throws(SystemError) {
        _ = try retrying { fsync(descriptor) }
    }

    /// Flushes a directory's entries (a rename in it) to the device; best effort.
    package static func syncDirectory(_ path: String) {
        guard let descriptor = try? openFile(path, .readOnly, .directory) else { return }
        _ = fsync(descriptor)
        closeFile(descriptor)
    }

    /// The status of an open file.
    package static func status(ofDescriptor descriptor: Int32) throws(SystemError) -> FileStatus {
        var info = stat()
        _ = try retrying { fstat(descriptor, &info) }
        return FileStatus(info)
    }

    /// The status of the file at `path` (of the link itself when `followingLinks` is `false`), or `nil` when
    /// nothing is there.
    package static func status(atPath path: String, followingLinks: Bool) throws(SystemError) -> FileStatus? {
        var info = stat()
        do {
            _ = try retrying { followingLinks ? stat(path, &info) : lstat(path, &info) }
        } catch {
            if error.isNotFound { return nil }
            throw error
        }
        return FileStatus(info)
    }

    /// What a symbolic link contains (a path, absolute or relative to the link's folder).
    package static func linkDestination(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let capacity = buffer.count
        let count = try retrying { readlink(path, &buffer, capacity) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Renames a file, replacing what `destination` names (a link there is replaced, not followed).
    package static func renameItem(_ source: String, to destination: String) throws(SystemError) {
        _ = try retrying { rename(source, destination) }
    }

    /// Removes a directory entry (a link is removed, not what it names).
    package static func removeFile(_ path: String) throws(SystemError) {
        _ = try retrying { unlink(path) }
    }

    /// Gives an open file another owner and group.
    package static func changeOwner(_ descriptor: Int32, owner: UInt32, group: UInt32) throws(SystemError) {
        _ = try retrying { fchown(descriptor, uid_t(owner), gid_t(group)) }
    }

    /// Gives an open file other permission bits.
    package static func changePermissions(_ descriptor: Int32, to permissions: UInt32) throws(SystemError) {
        _ = try retrying { fchmod(descriptor, mode_t(permissions)) }
    }

    /// Whether this process (its effective user and group) may write the file at `path`.
    /// - Throws: why not (``SystemError/isNotFound`` when nothing is there).
    package static func checkWritable(_ path: String) throws(SystemError) {
        _ = try retrying { faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) }
    }

    /// Takes an exclusive `flock` on an open file without waiting.
    /// - Returns: `false` when another open file description holds it.
    package static func tryLockExclusive(_ descriptor: Int32) throws(SystemError) -> Bool {
        do {
            _ = try retrying { flock(descriptor, LOCK_EX | LOCK_NB) }
            return true
        } catch {
            if error.wouldBlock { return false }
            throw error
        }
    }

    /// Releases a `flock`.
    package static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
    }
}
