import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells when an entry of a folder changes (a file written, created, renamed over or removed): inotify on Linux,
/// a `DispatchSource` on the folder's descriptor (kqueue's `EVFILT_VNODE`) on Darwin. A hint, not a guarantee:
/// callers keep polling as the fallback (an editor that writes a file in place is seen by inotify but not by
/// Darwin's folder watch; a store that is a link to another folder is seen by neither).
///
/// The handler runs on a private serial queue. ``cancel()`` (or releasing the watch) stops it and closes the
/// descriptor.
package final class FolderWatch: @unchecked Sendable {
    // @unchecked: the only state is the dispatch source, immutable here; its `cancel()` is thread-safe.
    private let source: any DispatchSourceProtocol

    /// Watches `folder` for changes of the entry `name` (Linux; Darwin reports changes of any entry).
    /// - Parameters:
    ///   - folder: The folder's path.
    ///   - name: The entry's name in it.
    ///   - handler: Called after each batch of changes.
    /// - Throws: why the watch cannot be set up (no such folder, no inotify instances left, …).
    package init(folder: String, name: String, handler: @escaping @Sendable () -> Void) throws(SystemError) {
        let queue = DispatchQueue(label: "flagstaff.folder-watch")
        #if os(Linux) || os(Android)
        let descriptor = try Platform.retrying { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        do {
            _ = try Platform.retrying { inotify_add_watch(descriptor, folder, mask) }
        } catch {
            close(descriptor)
            throw error
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            if Self.drainEvents(descriptor, naming: name) { handler() }
        }
        #else
        // O_EVTONLY: a descriptor for events only, which does not keep the volume from being unmounted.
        let descriptor = try Platform.retrying { open(folder, O_EVTONLY | O_CLOEXEC) }
        let source = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: descriptor, eventMask: [.write, .rename, .delete, .link, .attrib], queue: queue)
        source.setEventHandler { handler() }
        #endif
        source.setCancelHandler { close(descriptor) }
        source.resume()
        self.source = source
    }

    deinit { source.cancel() }

    /// Stops the watch and closes its descriptor.
    package func cancel() { source.cancel() }

    #if os(Linux) || os(Android)
    /// Reads every queued inotify event.
    /// - Returns: whether one named `name` (or the queue overflowed: anything may have changed).
    private static func drainEvents(_ descriptor: Int32, naming name: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var matched = false
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return matched }
            var offset = 0
            while offset + headerSize <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                let nameStart = offset + headerSize
                let nameEnd = min(nameStart + length, count)
                let entry = buffer[nameStart..<nameEnd].prefix { $0 != 0 }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 || entry.elementsEqual(name.utf8) { matched = true }
                offset = nameEnd
            }
        }
    }
    #endif
}
