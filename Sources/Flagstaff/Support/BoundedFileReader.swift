import Foundation

/// Reads a whole small file with a size limit: the store file, the bisect state file, a profile, the journal's
/// tail.
///
/// Only a regular file is read: the path is inspected first and a FIFO, a device, a socket or a directory is
/// refused without being opened (a FIFO would make the read wait for a writer forever, `/dev/zero` would never
/// end). With `followingLinks: false` (Flagstaff's own files beside the store) a symbolic link is refused too.
package enum BoundedFileReader {
    /// Why a file could not be read.
    package enum Failure: Error {
        /// `open` or `read` failed: the system's reason.
        case unreadable(String)
        /// The file is larger than the limit.
        case tooLarge
        /// Not a regular file, or a link where none is followed: what was found, as a clause (`it is a FIFO (named
        /// pipe), not a file`).
        case notAFile(String)

        /// What is wrong, as a clause after the file's name: the system's reason, what was found instead of a file,
        /// or `larger than 256 MiB` for the `limit` the read had.
        package func reason(limit: Int) -> String {
            switch self {
            case .unreadable(let reason), .notAFile(let reason): reason
            case .tooLarge: "larger than \(limit >> 20) MiB"
            }
        }
    }

    /// The file's bytes, or `nil` when it does not exist.
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the largest size accepted, in bytes.
    ///   - followingLinks: whether a symbolic link is read through (the store file) or refused (Flagstaff's own
    ///     files beside it).
    /// - Throws: ``Failure``.
    package static func read(_ path: String, limit: Int, followingLinks: Bool = true) throws(Failure) -> Data? {
        guard let descriptor = try open(path, followingLinks: followingLinks) else { return nil }
        defer { Platform.closeFile(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do throws(SystemError) {
                count = try Platform.readSome(descriptor, into: &buffer)
            } catch {
                throw .unreadable(error.description)
            }
            if count == 0 { break }
            data.append(buffer, count: count)
            if data.count > limit { throw .tooLarge }
        }
        return data
    }

    /// Opens a regular file for reading after checking what the path names; `nil` when nothing is there.
    /// - Throws: ``Failure``.
    package static func open(_ path: String, followingLinks: Bool) throws(Failure) -> Int32? {
        let found: FileStatus?
        do throws(SystemError) {
            found = try Platform.status(atPath: path, followingLinks: followingLinks)
        } catch {
            throw .unreadable(error.description)
        }
        guard let found else { return nil }
        if let refusal = OwnFile.refusal(for: found, at: path) { throw .notAFile(refusal) }
        let descriptor: Int32
        do throws(SystemError) {
            // Non-blocking: a FIFO put in the file's place since the check above must not stop the open.
            descriptor = try Platform.openFile(
                path, .readOnly, followingLinks ? [.nonBlocking] : [.nonBlocking, .noFollow])
        } catch {
            if error.isNotFound { return nil }
            if error.isSymbolicLink { throw .notAFile(OwnFile.linkClause(path)) }
            throw .unreadable(error.description)
        }
        let opened: FileStatus
        do throws(SystemError) {
            opened = try Platform.status(ofDescriptor: descriptor)
        } catch {
            Platform.closeFile(descriptor)
            throw .unreadable(error.description)
        }
        if let refusal = OwnFile.refusal(for: opened, at: path) {
            Platform.closeFile(descriptor)
            throw .notAFile(refusal)
        }
        return descriptor
    }
}
