#if os(Linux)
import Glibc
#endif

/// Hands memory freed after a large transient build (a manifest read, the search index builder's scratch
/// arrays) back to the system. glibc keeps freed heap pages otherwise, so a process that loaded a
/// 100,000-flag manifest would keep megabytes it no longer uses. Does nothing on other systems, nor under a
/// sanitizer (whose allocator replaces glibc's: `malloc_trim` would walk an arena glibc never set up).
package func releaseFreedMemory() {
    #if os(Linux)
    guard glibcAllocatorInUse else { return }
    _ = glibcMallocTrim(0)
    #endif
}

#if os(Linux)
/// glibc's `malloc_trim`, which the Glibc module does not import.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32

/// Whether glibc's allocator serves this process: not when the thread or address sanitizer's runtime is linked
/// in (it exports its entry point).
private let glibcAllocatorInUse: Bool = {
    guard let process = dlopen(nil, RTLD_NOW) else { return true }
    defer { dlclose(process) }
    return dlsym(process, "__tsan_init") == nil && dlsym(process, "__asan_init") == nil
}()
#endif
