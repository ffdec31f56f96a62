import Foundation

#if canImport(Glibc)
import Glibc

private let readBytes = Glibc.read
#elseif canImport(Darwin)
import Darwin

private let readBytes = Darwin.read
#endif

/// Reads a file named on the command line: a regular file, a pipe (process substitution such as
/// `<(cat m.json)` names one), or `-` for the command's standard input.
///
/// Regular files are size-checked before reading; pipes and standard input are read up to the same limit.
/// Directories, devices (`/dev/null`, `/dev/full`, a terminal) and sockets are refused with a message that
/// says what the path is, and failures name the path and the system's reason in plain words.
enum InputFile {
    /// The largest input read: a manifest or an override file is a few kilobytes to a few megabytes.
    static let maximumBytes = 64 << 20

    /// How the path is named in messages: `standard input` for `-`, else the path.
    static func displayName(_ path: String) -> String {
        path == "-" ? "standard input" : path
    }

    /// Reads the whole input.
    /// - Parameters:
    ///   - path: the path as given, or `-` for the command context's standard input.
    ///   - what: what the file is for, opening messages (`--manifest`, `import`).
    /// - Returns: the bytes.
    /// - Throws: `CLIFailure.runtime` naming the path and what is wrong.
    static func read(_ path: String, for what: String) throws -> Data {
        if path == "-" {
            let data: Data
            do {
                data = try CommandContext.current.readInput()
            } catch {
                throw CLIFailure.runtime("\(what): cannot read standard input: \(error.reason)")
            }
            guard data.count <= maximumBytes else { throw tooLarge("standard input", what: what, pipe: true) }
            return data
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CLIFailure.runtime("\(what): cannot read the file \(path): \(reason(errno))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard Int(status.st_size) <= maximumBytes else { throw tooLarge(path, what: what, pipe: false) }
        case S_IFIFO:
            break
        case S_IFDIR:
            throw CLIFailure.runtime(
                "\(what): \(path) is a directory; expected a JSON file, a pipe or - (standard input)")
        case S_IFCHR, S_IFBLK:
            throw CLIFailure.runtime(
                "\(what): \(path) is a device, not a file; expected a JSON file, a pipe or - (standard input)")
        default:
            throw CLIFailure.runtime(
                "\(what): \(path) is not a regular file or a pipe; expected a JSON file, a pipe or - (standard input)")
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CLIFailure.runtime("\(what): cannot read the file \(path): \(reason(errno))")
        }
        defer { close(descriptor) }
        let data: Data
        do {
            data = try readAll(descriptor)
        } catch {
            throw CLIFailure.runtime("\(what): cannot read the file \(path): \(reason(error.code))")
        }
        if data.count > maximumBytes { throw tooLarge(path, what: what, pipe: true) }
        return data
    }

    /// Why standard input or a file could not be read: the system's error number.
    struct ReadError: Error {
        /// The `errno` of the failed call.
        var code: Int32

        /// In words: `it is closed` for a closed standard input, else the system's reason.
        var reason: String {
            code == EBADF ? "it is closed (give the input on standard input, or a file)" : InputFile.reason(code)
        }
    }

    /// Reads the process's standard input to its end, or until it has sent more than ``maximumBytes``.
    /// - Throws: ``ReadError`` when it cannot be read (closed: `EBADF`).
    static func readStandardInput() throws(ReadError) -> Data {
        if StandardDescriptors.inputWasClosed { throw ReadError(code: EBADF) }
        return try readAll(STDIN_FILENO)
    }

    /// Reads `descriptor` to its end, or until more than ``maximumBytes`` have arrived.
    private static func readAll(_ descriptor: Int32) throws(ReadError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(code: errno)
            }
            data.append(contentsOf: buffer[0..<count])
            if data.count > maximumBytes { break }
        }
        return data
    }

    private static func tooLarge(_ name: String, what: String, pipe: Bool) -> CLIFailure {
        let how = pipe ? "sent more than" : "is larger than"
        return CLIFailure.runtime(
            "\(what): \(name) \(how) \(maximumBytes >> 20) MiB; expected a JSON file of at most that size")
    }

    /// The system's reason for an `errno`, in words (`No such file or directory`).
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or directory"
        case EACCES: "permission denied"
        case ENOTDIR: "a component of the path is not a directory"
        case ELOOP: "too many symbolic links"
        case ENAMETOOLONG: "the path is too long"
        default: String(cString: strerror(code))
        }
    }
}
