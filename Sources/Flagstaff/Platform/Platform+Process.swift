#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Platform {
    /// This process's id.
    package static var processID: Int32 { getpid() }

    /// The user this process acts as (its effective user id).
    package static var effectiveUserID: UInt32 { UInt32(geteuid()) }

    /// The login name of a user id, or `nil` when the user database has none.
    package static func userName(of user: UInt32) -> String? {
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid_t(user), &record, &buffer, buffer.count, &result) == 0, let entry = result,
            let name = entry.pointee.pw_name
        else { return nil }
        return String(cString: name)
    }

    /// Whether no process has this id any more (a process of another user still counts as alive).
    package static func processIsGone(_ process: Int32) -> Bool {
        kill(process, 0) != 0 && errno == ESRCH
    }

    /// Flushes the C library's output streams (standard output, where `print` writes, is buffered when not a
    /// terminal), at the end of a command.
    /// - Returns: `nil` when what was buffered was written, else why it was not (`No space left on device` for
    ///   `> /dev/full` or a full disk).
    package static func flushStandardOutput() -> String? {
        // `fflush(NULL)`: naming `stdout` (a mutable C global) is not concurrency-safe in Swift 6.
        guard fflush(nil) != 0 else { return nil }
        return String(cString: strerror(errno))
    }

    /// The bytes of an environment variable as the process was given them, before any decoding (Foundation's
    /// `environment` replaces bytes that are not UTF-8 with U+FFFD), or `nil` when it is not set.
    package static func environmentBytes(_ name: String) -> [UInt8]? {
        guard let value = getenv(name) else { return nil }
        return Array(UnsafeRawBufferPointer(start: value, count: strlen(value)))
    }

    /// Sleeps the calling thread.
    package static func sleep(microseconds: UInt32) {
        _ = usleep(useconds_t(microseconds))
    }

    /// Lets other threads run.
    package static func yieldThread() {
        _ = sched_yield()
    }

    /// The machine's host name, or an empty string when it cannot be read.
    package static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address of a symbol already loaded in the process (the sanitizers' entry points), or `nil`.
    package static func loadedSymbol(named name: String) -> UnsafeMutableRawPointer? {
        guard let process = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(process) }
        return dlsym(process, name)
    }
}

/// Hands memory freed after a large transient build (a manifest read, the search index builder's scratch arrays)
/// back to the system. glibc keeps freed heap pages otherwise, so a process that loaded a 100,000-flag manifest
/// would keep megabytes it no longer uses. Does nothing on Darwin and Musl (no `malloc_trim`; their allocators
/// return memory themselves), nor under a sanitizer (whose allocator replaces glibc's: `malloc_trim` would walk an
/// arena glibc never set up).
package func releaseFreedMemory() {
    #if canImport(Glibc)
    guard glibcAllocatorInUse else { return }
    _ = glibcMallocTrim(0)
    #endif
}

#if canImport(Glibc)
/// glibc's `malloc_trim`, which the Glibc module does not import.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32

/// Whether glibc's allocator serves this process: not when the thread or address sanitizer's runtime is linked
/// in (it exports its entry point).
private let glibcAllocatorInUse =
    Platform.loadedSymbol(named: "__tsan_init") == nil && Platform.loadedSymbol(named: "__asan_init") == nil
#endif
