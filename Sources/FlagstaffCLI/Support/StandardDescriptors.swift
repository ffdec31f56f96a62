#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error the process was started without (`<&-`, `>&-`, `2>&-`).
///
/// A closed one is opened on `/dev/null` before anything else is opened: otherwise the next file opened (the
/// store, its lock) would get its number, and diagnostics written to "standard error" would land in it. Reading
/// `-` from a standard input that was closed is still an error (``InputFile/readStandardInput()``).
enum StandardDescriptors {
    /// Whether standard input was closed when the process started. The first use (``FlagstaffCommand/main()``
    /// makes it first) opens `/dev/null` on every closed standard descriptor.
    static let inputWasClosed: Bool = {
        var inputClosed = false
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            guard errno == EBADF else { continue }
            if descriptor == STDIN_FILENO { inputClosed = true }
            // The lowest free number is this one: the ones below it are open (or were just opened).
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != descriptor {
                _ = dup2(opened, descriptor)
                _ = close(opened)
            }
        }
        return inputClosed
    }()
}
