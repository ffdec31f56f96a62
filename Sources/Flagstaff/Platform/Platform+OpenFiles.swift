#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Platform {
    /// How many descriptors this process may have open (`RLIMIT_NOFILE`).
    package struct OpenFileLimit: Sendable, Equatable {
        /// The limit in force: opening one more fails with `EMFILE`.
        package var soft: Int
        /// The most the soft limit may be raised to (`Int.max`: no limit).
        package var hard: Int

        /// Creates a limit.
        package init(soft: Int, hard: Int) {
            self.soft = soft
            self.hard = hard
        }
    }

    /// The open-file limit in force, or `nil` when the system does not say.
    package static var openFileLimit: OpenFileLimit? {
        var limit = rlimit()
        guard getrlimit(openFilesResource, &limit) == 0 else { return nil }
        return OpenFileLimit(soft: Int(clamping: limit.rlim_cur), hard: Int(clamping: limit.rlim_max))
    }

    /// Raises the soft open-file limit as far as this process may (to the hard limit; on Darwin at most `OPEN_MAX`,
    /// which it requires there), never lowering it.
    /// - Returns: the limit in force afterwards (unchanged when the system refused), `nil` when it cannot be read.
    @discardableResult
    package static func raiseOpenFileLimit() -> OpenFileLimit? {
        var limit = rlimit()
        guard getrlimit(openFilesResource, &limit) == 0 else { return nil }
        #if canImport(Darwin)
        // Darwin refuses a soft limit above OPEN_MAX (10,240 in <sys/syslimits.h>), also when the hard one is higher.
        let target = min(limit.rlim_max, rlim_t(10_240))
        #else
        let target = limit.rlim_max
        #endif
        if target > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(openFilesResource, &raised) == 0 { limit = raised }
        }
        return OpenFileLimit(soft: Int(clamping: limit.rlim_cur), hard: Int(clamping: limit.rlim_max))
    }

    /// The name of an `errno` code that says "too many open files" (`EMFILE`: this process, `ENFILE`: the whole
    /// system), `nil` for any other code.
    package static func outOfDescriptorsName(_ code: Int32) -> String? {
        switch code {
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        default: nil
        }
    }

    #if canImport(Darwin)
    private static let openFilesResource = RLIMIT_NOFILE
    #elseif canImport(Glibc)
    private static let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #elseif canImport(Musl)
    private static let openFilesResource = RLIMIT_NOFILE
    #endif
}
