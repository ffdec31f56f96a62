import Foundation
import Synchronization

/// Overrides in a small versioned JSON file shared by every process that opens it (the app, the console,
/// scripts): `{"version":1,"overrides":{"list.infiniteScroll":"on"}}`.
///
/// - Writes are atomic (temporary file beside the file, `fsync`, `rename`, `fsync` of the directory): a reader
///   or a crash never sees half a file. A path that is a symbolic link (or a chain of them) is written through
///   to the file it names; a link to nothing is an error and nothing is created.
/// - A replaced file keeps its owner, group and mode. A file this user may not write is refused, even when
///   its directory is writable.
/// - Read-modify-write runs under an exclusive `flock` on a sidecar `<file>.lock` (beside the link's target),
///   which records the holder's pid and command. A writer waits for another's lock at most
///   ``LockWait/timeout`` (default 10 s), telling ``LockWait/onWaiting`` who holds it after
///   ``LockWait/noticeAfter`` (default 1 s).
/// - Overrides for keys the current registry does not declare, and top-level members other than `version` and
///   `overrides`, are kept.
/// - Temporary files of writers that were killed are removed by the next writer once their process is gone.
/// - A missing file means no overrides. A corrupt or unreadable file throws an error with the path and the
///   reason and is never overwritten. The reader and the writer share one size limit (64 MiB).
/// - ``changeSignature()`` (inode, size, modification time) lets a registry notice other processes' writes.
/// - Every change is appended, under the lock, to the change journal beside the file (what `flagstaff history`
///   and `flagstaff undo` read). A journal that cannot be written never blocks a change.
public final class FileOverrideStore: RevisionedOverrideStore {
    /// The largest file the reader accepts, and so the largest the writer writes.
    package static let defaultSizeLimit = 64 << 20

    /// The file.
    public let url: URL
    /// How a writer waits for another writer's lock.
    public let lockWait: LockWait
    /// The largest file read or written, in bytes.
    package let sizeLimit: Int
    /// How the change journal is kept, or `nil` when changes are not journaled.
    package let journalOptions: JournalOptions?
    /// Decides which overrides a write removes as expired, and dates journal entries.
    let clock: MonotonicWallClock
    /// The file as this store last read or wrote it (``StoreFileImage``).
    let lastImage = AnnotatedMutex<StoreFileImage?>(nil)
    /// The last revision given to an image.
    private let revisions = Atomic<UInt64>(0)
    /// The file's path (``url``'s, computed once: `flagstaff serve` asks for the file's signature on every request).
    let path: String

    /// Creates a store for a file (created at the first write, with its directory).
    /// - Parameters:
    ///   - url: a `file:` URL.
    ///   - lockWait: how a write waits for another writer's lock (default: up to 10 s, silently).
    ///   - wallClock: the clock that decides which overrides a write removes as expired and dates journal entries
    ///     (default: the system's).
    /// - Throws: `OverrideStoreError.invalidLocation` if the URL is not a file URL or names a directory.
    ///
    /// Changes are journaled beside the file (8 MiB rotation, origin `app`) for `flagstaff history` and `undo`.
    public convenience init(
        url: URL, lockWait: LockWait = LockWait(), wallClock: any WallClock = SystemWallClock()
    ) throws {
        try self.init(
            url: url, lockWait: lockWait, sizeLimit: Self.defaultSizeLimit, journal: JournalOptions(),
            wallClock: wallClock)
    }

    /// Creates a store with other journal options (the command-line tool, the console, tests).
    /// - Parameters:
    ///   - url: a `file:` URL.
    ///   - lockWait: how a write waits for another writer's lock.
    ///   - journal: how the change journal is kept; `nil` for none.
    ///   - wallClock: the clock that decides which overrides a write removes as expired and dates journal entries.
    /// - Throws: `OverrideStoreError.invalidLocation` if the URL is not a file URL or names a directory.
    package convenience init(
        url: URL, lockWait: LockWait = LockWait(), journal: JournalOptions?,
        wallClock: any WallClock = SystemWallClock()
    ) throws {
        try self.init(
            url: url, lockWait: lockWait, sizeLimit: Self.defaultSizeLimit, journal: journal, wallClock: wallClock)
    }

    /// Creates a store with another size limit (tests).
    package init(
        url: URL, lockWait: LockWait, sizeLimit: Int, journal: JournalOptions? = JournalOptions(),
        wallClock: any WallClock = SystemWallClock()
    ) throws {
        guard url.isFileURL else {
            throw OverrideStoreError.invalidLocation(url.absoluteString, reason: "expected a file path or file: URL")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw OverrideStoreError.invalidLocation(
                url.path, reason: "it is a directory; expected a file such as overrides.json")
        }
        self.url = url.standardizedFileURL
        self.path = self.url.path
        self.lockWait = lockWait
        self.sizeLimit = sizeLimit
        self.journalOptions = journal
        self.clock = MonotonicWallClock(wallClock)
    }

    /// The default location for a registry's overrides: `<directory>/<name>.json` in ``defaultDirectory()``
    /// (Application Support on Apple platforms, `~/.config/flagstaff` elsewhere). Characters other than letters,
    /// digits, `-`, `_` and `.` in `name` become `-`.
    /// - Parameter name: the registry or app name.
    /// - Returns: the file URL (not created; the first write creates the file and its directory).
    public static func defaultURL(name: String) -> URL {
        let safe = String(name.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" })
        let file = (safe.isEmpty || safe.allSatisfy { $0 == "." } ? "overrides" : safe) + ".json"
        return defaultDirectory().appendingPathComponent(file)
    }

    /// The directory default stores live in: on Apple platforms the user's (or, in a sandbox or on iOS, the app's)
    /// `Application Support/flagstaff`; elsewhere `$XDG_CONFIG_HOME/flagstaff`, else `~/.config/flagstaff`.
    package static func defaultDirectory() -> URL {
        #if canImport(Darwin)
        if let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
            return support.appendingPathComponent("flagstaff", isDirectory: true)
        }
        #endif
        return configDirectory(environment: ProcessInfo.processInfo.environment)
    }

    /// `$XDG_CONFIG_HOME/flagstaff` when it is an absolute path, else `$HOME/.config/flagstaff` (the home directory
    /// from the system when `HOME` is unset or empty): where default stores live outside Apple platforms.
    /// - Parameter environment: the process environment.
    package static func configDirectory(environment: [String: String]) -> URL {
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("flagstaff", isDirectory: true)
    }

    /// Reads the file. A missing file means no overrides.
    /// - Throws: `OverrideStoreError.unreadable` or `.corrupt`, naming the file.
    public func load() throws -> [String: OverrideValue] {
        try loadSnapshot().overrides
    }

    /// Reads the file with its expiry times. A missing file means no overrides.
    /// - Throws: `OverrideStoreError.unreadable` or `.corrupt`, naming the file.
    public func loadSnapshot() throws -> StoreSnapshot {
        try loadRevisioned().snapshot
    }

    /// The revision of a missing file: no overrides, whoever removed the file or never wrote it.
    static let missingFileRevision: UInt64 = 0

    /// Reads the file with the revision of what it holds (``missingFileRevision`` for no file).
    /// - Throws: as ``loadSnapshot()``.
    package func loadRevisioned() throws -> (snapshot: StoreSnapshot, revision: UInt64) {
        try loadRevisioned(repair: nil)
    }

    /// Reads the file as ``loadRevisioned()`` does, taking the unreadable entries `repair` covers for removal (see
    /// ``StoreRepair``).
    /// - Throws: as ``loadSnapshot()``.
    package func loadRevisioned(repair: StoreRepair?) throws -> (snapshot: StoreSnapshot, revision: UInt64) {
        guard let data = try readFile() else { return (StoreSnapshot(), Self.missingFileRevision) }
        let image = try decode(data, repair: repair)
        return (StoreSnapshot(overrides: image.contents.overrides, expiries: image.contents.expiries), image.revision)
    }

    /// Writes a change in one read-modify-write under the cross-process lock (``OverrideStore/write(_:)``):
    /// overrides that have expired by the store's clock are removed first, as a change of their own journaled with
    /// origin ``ChangeOrigin/expiry``; the file is replaced only if something changed, and the change is journaled
    /// (origin ``JournalOptions/origin``).
    /// - Returns: the contents after the write.
    /// - Throws: `OverrideStoreError` naming the file; a corrupt file is not overwritten; nothing is written
    ///   when the file may not be written, its lock is not released in time or the result would be too large.
    @discardableResult
    public func write(_ change: OverrideChange) throws -> StoreSnapshot {
        try modify(known: nil, parameters: WriteParameters()) { _, _ in change }.snapshot
    }

    /// Writes `change` as ``write(_:)`` does, with `parameters`, telling what changed when the file was, when the
    /// write began, the one of revision `known` (read or written last by this store object).
    /// - Throws: as ``write(_:)``.
    package func write(
        _ change: OverrideChange, known: UInt64?, parameters: WriteParameters = WriteParameters()
    ) throws -> WriteReceipt {
        try modify(known: known, parameters: parameters) { _, _ in change }
    }

    /// A read-modify-write whose change is planned from the contents read under the lock (every write of this store
    /// comes here): `plan` sees the current
    /// overrides (without those expired, which this write removes) and returns the change to make (or throws to
    /// make none), and may complete the journal's note (origin, undo link), which starts as `parameters.note`.
    /// - Parameters:
    ///   - known: the revision of the contents the caller holds, or `nil`: the receipt's changes are given only
    ///     when the write started from them.
    ///   - parameters: the journal's note, the repair, the wait for the lock.
    ///   - plan: the change, from the contents read under the lock.
    /// - Returns: what the write did.
    /// - Throws: `plan`'s error, or `OverrideStoreError` as ``write(_:)``.
    package func modify(
        known: UInt64?, parameters: WriteParameters,
        _ plan: ([String: OverrideValue], inout ChangeAnnotation) throws -> OverrideChange
    ) throws -> WriteReceipt {
        let layout = try self.layout()
        try checkWritable(layout.target)
        try ensureDirectory(of: layout.target)
        return try withExclusiveLock(layout, wait: parameters.lockWait ?? lockWait) {
            OwnFile.removeAbandonedTemporaryFiles(of: layout.target)
            let image = try readFile().map { try decode($0, repair: parameters.repair) }
            let contents = image?.contents
            var snapshot = StoreSnapshot(overrides: contents?.overrides ?? [:], expiries: contents?.expiries ?? [:])
            // No file holds no overrides: a write to a missing file starts from known (empty) contents.
            let base = image?.revision ?? Self.missingFileRevision
            var order = StoreFileImage.order(of: image)
            var expired: [StoreSnapshot.ValueChange] = []
            let removal = snapshot.removalOfExpired(at: clock.now())
            if !removal.isEmpty {
                (order, expired) = StoreFileImage.merge(order, removal, expiries: snapshot.expiries)
                snapshot.apply(expired)
                snapshot.applyExpiries(of: removal)
            }
            var note = parameters.note
            let change = try plan(snapshot.overrides, &note)
            let (sorted, changed) = StoreFileImage.merge(order, change, expiries: snapshot.expiries)
            let steps = change.journalSteps.map { Self.changes(of: $0, from: snapshot) }
            guard !changed.isEmpty || !expired.isEmpty else {
                // Setter calls that undid each other leave the file as it was, and are journaled all the same.
                let journaled = steps.map { journal(steps: $0, note: note, layout: layout) }
                return WriteReceipt(
                    snapshot: snapshot, revision: base, changes: base == known ? [] : nil,
                    changeID: journaled?.id, journalError: journaled?.error)
            }
            snapshot.applyExpiries(of: change)
            var receipt = try finish(
                snapshot, sorted: sorted, changed: changed, expired: expired, steps: steps,
                otherMembers: contents?.otherMembers ?? [], note: note, layout: layout)
            if base != known { receipt.changes = nil }
            return receipt
        }
    }

    /// From this many changed keys, the snapshot's dictionary is updated on a second thread while the file is
    /// encoded and written (the same threshold as the registry's, ``AnyFeatureRegistry/parallelApplyThreshold``).
    static let parallelApplyThreshold = 20_000

    /// Encodes the new contents, replaces the file, journals the change (and the expired overrides it removed
    /// first) and keeps the file's image. `snapshot` is the contents before the change's values (its expiries
    /// already applied); `changed` is put in force in it, on a second thread for a large change. `steps`, when
    /// given, are journaled instead of `changed` (``OverrideChange/journalSteps``).
    private func finish(
        _ snapshot: StoreSnapshot, sorted: SortedOverrides, changed: [StoreSnapshot.ValueChange],
        expired: [StoreSnapshot.ValueChange], steps: [(change: StoreSnapshot.ValueChange, time: Date)]?,
        otherMembers: [OverrideFileFormat.Contents.Member], note: ChangeAnnotation, layout: StoreLayout
    ) throws -> WriteReceipt {
        typealias Written = (data: Data, revision: UInt64, journaled: (id: String?, error: OverrideStoreError?))
        let written = AnnotatedMutex<Result<Written, any Error>?>(nil)
        let updated = AnnotatedMutex(snapshot)
        let writeFile: @Sendable () -> Void = { [self] in
            let result = Result { () throws -> Written in
                let data = OverrideFileFormat.encode(sorted, expiries: snapshot.expiries, otherMembers: otherMembers)
                guard data.count <= sizeLimit else {
                    throw OverrideStoreError.unwritable(
                        path: path,
                        reason:
                            "the new contents would be \(data.count) bytes, over the \(Self.describe(bytes: sizeLimit)) a reader accepts; nothing was written"
                    )
                }
                lastImage.withLock { $0 = nil }  // the file is about to change, whatever happens next
                try writeAtomically(data, to: layout.target)
                let revision = revisions.add(1, ordering: .relaxed).newValue
                let expiry =
                    expired.isEmpty ? nil : journal(expired, note: ChangeAnnotation(origin: .expiry), layout: layout)
                var journaled: (id: String?, error: OverrideStoreError?) =
                    if let steps {
                        journal(steps: steps, note: note, layout: layout)
                    } else {
                        changed.isEmpty ? (nil, nil) : journal(changed, note: note, layout: layout)
                    }
                if journaled.error == nil { journaled.error = expiry?.error }
                return (data, revision, journaled)
            }
            written.withLock { $0 = result }
        }
        if changed.count >= Self.parallelApplyThreshold {
            // The snapshot's dictionary (100,000 hashed keys for a bulk change) while the file is encoded and written.
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                if part == 0 {
                    writeFile()
                } else {
                    updated.withLock { $0.apply(changed) }
                }
            }
        } else {
            updated.withLock { $0.apply(changed) }
            writeFile()
        }
        guard let outcome = written.withLock({ $0 }) else {
            throw OverrideStoreError.unwritable(path: path, reason: "the write did not finish; nothing was written")
        }
        let result = try outcome.get()
        let contents = updated.withLock { $0 }
        lastImage.withLock {
            $0 = StoreFileImage(
                bytes: result.data,
                contents: OverrideFileFormat.Contents(
                    overrides: contents.overrides, expiries: contents.expiries, otherMembers: otherMembers),
                sorted: sorted, revision: result.revision)
        }
        return WriteReceipt(
            snapshot: contents, revision: result.revision, changes: expired + changed, changeID: result.journaled.id,
            journalError: result.journaled.error)
    }

    /// Runs `body` holding the store's lock, as a write does (waiting as ``lockWait`` says). For tools and tests
    /// that need to hold the lock.
    /// - Throws: the lock's errors, or `body`'s.
    package func holdingLock<T>(_ body: () throws -> T) throws -> T {
        let layout = try self.layout()
        try ensureDirectory(of: layout.target)
        return try withExclusiveLock(layout, wait: lockWait, body)
    }

    /// Inode, size and modification time of the file (all zero when it does not exist).
    public func changeSignature() -> StoreSignature? {
        guard let info = try? Platform.status(atPath: path, followingLinks: true) else {
            return StoreSignature([0, 0, 0, 0])
        }
        return StoreSignature([
            Int64(bitPattern: info.inode), info.size, info.modifiedSeconds, info.modifiedNanoseconds,
        ])
    }

    // MARK: File operations

    /// `64 MiB`, or `300 bytes`.
    static func describe(bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    /// Decodes the file's bytes, or takes them as read or written last time when they are byte for byte the same
    /// (then the sorted keys come along), and keeps them as the last image.
    /// - Throws: `OverrideStoreError.corrupt` naming the file.
    private func decode(_ data: Data, repair: StoreRepair?) throws(OverrideStoreError) -> StoreFileImage {
        if let image = lastImage.withLock({ $0 }), image.bytes.count == data.count, image.hasBytes(data) {
            return image
        }
        let image = StoreFileImage(
            bytes: data, contents: try OverrideFileFormat.decodeStore(data, path: path, repair: repair), sorted: nil,
            revision: revisions.add(1, ordering: .relaxed).newValue)
        // Read for a repair, unreadable entries were let through: such an image is not the file as others read it.
        if repair == nil { lastImage.withLock { $0 = image } }
        return image
    }

    private func readFile() throws -> Data? {
        do {
            return try BoundedFileReader.read(path, limit: sizeLimit)
        } catch {
            switch error {
            case .unreadable(let reason):
                throw OverrideStoreError.unreadable(path: path, reason: reason)
            case .notAFile(let reason):
                throw OverrideStoreError.invalidLocation(path, reason: reason + Self.expectedFile)
            case .tooLarge:
                throw OverrideStoreError.corrupt(
                    path: path,
                    reason: "larger than \(Self.describe(bytes: sizeLimit)); an override file is a few kilobytes")
            }
        }
    }

    /// The files beside this store (docs/files.md), its path's links followed now: every write, journal read and
    /// bisect step takes one layout and names its files from it.
    /// - Throws: `OverrideStoreError.unwritable` when the path is a symbolic link that cannot be followed.
    package func layout() throws -> StoreLayout {
        try StoreLayout.resolving(path)
    }

    /// `; expected a file such as overrides.json`.
    static let expectedFile = "; expected a file such as overrides.json"

    /// Refuses a target that exists and is not a regular file (a FIFO, a device: named, before anything is
    /// created beside it), or that this process may not write (its mode or owner), whatever its directory allows.
    private func checkWritable(_ target: String) throws {
        if let found = try? Platform.status(atPath: target, followingLinks: false),
            let refusal = OwnFile.refusal(for: found, at: target)
        {
            throw OverrideStoreError.invalidLocation(path, reason: refusal + Self.expectedFile)
        }
        do throws(SystemError) {
            try Platform.checkWritable(target)
        } catch {
            if error.isNotFound { return }
            var detail = ""
            if let info = try? Platform.status(atPath: target, followingLinks: true) {
                detail =
                    " (the file is mode \(String(info.permissions, radix: 8)), owned by uid \(info.owner) gid \(info.group); this process runs as uid \(Platform.effectiveUserID))"
            }
            throw OverrideStoreError.unwritable(path: path, reason: "\(error)\(detail); it was not changed")
        }
    }

    private func ensureDirectory(of target: String) throws {
        let directory = (target as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw OverrideStoreError.unwritable(
                path: path, reason: "cannot create directory \(directory): \(error.localizedDescription)")
        }
    }
}
