import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole small file with a size limit: the store file and the bisect state file.
package enum BoundedFileReader {
    /// Why a file could not be read.
    package enum Failure: Error {
        /// `open` or `read` failed: the system's reason.
        case unreadable(String)
        /// The file is larger than the limit.
        case tooLarge
    }

    /// The file's bytes, or `nil` when it does not exist.
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the largest size accepted, in bytes.
    /// - Throws: ``Failure``.
    package static func read(_ path: String, limit: Int) throws(Failure) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw .unreadable(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = systemRead(fd, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { break }
            data.append(buffer, count: count)
            if data.count > limit { throw .tooLarge }
        }
        return data
    }
}

/// `read(2)`, named apart from ``BoundedFileReader/read(_:limit:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
