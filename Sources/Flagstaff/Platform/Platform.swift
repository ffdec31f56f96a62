// The one place in the library targets that imports the C library. Every other file calls the Swift names below
// (`scripts/check-portability` enforces it; docs/files.md, "Portability", says what is guarded and how).
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The operating system, behind Swift names: files, processes, threads, memory and addresses.
///
/// Each call is a thin wrapper with no policy of its own (what to do about a link, an owner or a missing file is
/// decided by the caller). Every descriptor is opened close-on-exec, and every call that can be interrupted by a
/// signal is retried. Spellings that differ between Darwin and Glibc/Musl are written out for each in this folder
/// and nowhere else.
package enum Platform {}

/// An error the operating system reported: its `errno` code, described by ``description``.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` value.
    package let code: Int32

    /// An error with the given `errno` value.
    package init(code: Int32) {
        self.code = code
    }

    /// A file ended before the bytes it was known to hold (`EIO`).
    package static let unexpectedEnd = SystemError(code: EIO)

    /// The error of the call that just failed (`errno`).
    static var last: SystemError { SystemError(code: errno) }

    /// The system's text for it: `No such file or directory`.
    package var description: String { String(cString: strerror(code)) }

    /// The path does not exist (`ENOENT`).
    package var isNotFound: Bool { code == ENOENT }
    /// Permission denied (`EACCES`, `EPERM`).
    package var isPermissionDenied: Bool { code == EACCES || code == EPERM }
    /// The last part of the path is a symbolic link and the call was told not to follow it (`ELOOP`).
    package var isSymbolicLink: Bool { code == ELOOP }
    /// The path names a directory (`EISDIR`).
    package var isDirectory: Bool { code == EISDIR }
    /// The call would have had to wait (`EWOULDBLOCK`, `EAGAIN`).
    package var wouldBlock: Bool { code == EWOULDBLOCK || code == EAGAIN }
    /// The device or file system is read-only (`EROFS`).
    package var isReadOnlyFileSystem: Bool { code == EROFS }
}

extension Platform {
    /// Runs a call that returns -1 and sets `errno` on failure, again while a signal interrupts it.
    @inline(__always)
    static func retrying<T: BinaryInteger>(_ call: () -> T) throws(SystemError) -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            let error = SystemError.last
            if error.code != EINTR { throw error }
        }
    }
}
