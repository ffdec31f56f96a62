extension FileOverrideStore {
    /// Watches the store's file for writes by other processes (``FolderWatch`` on its folder: inotify on Linux, a
    /// dispatch source on Darwin), calling `handler` soon after each. A hint only: keep comparing
    /// ``changeSignature()`` as the fallback.
    /// - Parameter handler: Called on a private queue after each batch of changes.
    /// - Returns: The watch (it stops when released).
    /// - Throws: why it cannot be set up (the folder does not exist yet, no inotify instances left).
    package func watchFile(_ handler: @escaping @Sendable () -> Void) throws(SystemError) -> FolderWatch {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return try FolderWatch(folder: folder, name: name, handler: handler)
    }
}
