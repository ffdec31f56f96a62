/// Hands memory freed after a large transient build (a manifest read, the search index builder's scratch
/// arrays) back to the system. glibc keeps freed heap pages otherwise, so a process that loaded a
/// 100,000-flag manifest would keep megabytes it no longer uses. Does nothing on other systems.
package func releaseFreedMemory() {
    #if os(Linux)
    _ = glibcMallocTrim(0)
    #endif
}

#if os(Linux)
/// glibc's `malloc_trim`, which the Glibc module does not import.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
