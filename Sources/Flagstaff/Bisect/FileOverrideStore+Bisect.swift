import Foundation

extension ChangeOrigin {
    /// A bisect step, or the restore at its end.
    package static let bisect: ChangeOrigin = "bisect"
}

/// What ``FileOverrideStore/resetBisect()`` did.
package struct BisectResetOutcome: Sendable, Equatable {
    /// The session that was ended.
    package let session: BisectSession
    /// The candidates whose entries changed back: key → value restored.
    package let restored: [String: OverrideValue]
    /// Candidates someone had changed since the last step; their values were replaced by the ones from before
    /// the start.
    package let drift: [BisectDrift]
}

/// Bisecting a file store's overrides (see ``BisectSession``).
///
/// The session is kept in `<store>.bisect.json` beside the store file (beside the file a symbolic link names),
/// so it survives restarts of the app, the console and the command line. Every operation runs under the store's
/// lock: it reads the session and the overrides, checks them, and writes the store (one change journaled with
/// origin ``ChangeOrigin/bisect``) and the session together. Overrides that are not candidates are never
/// touched.
extension FileOverrideStore {
    /// The bisect state file of this store: `<store>.bisect.json` beside the file the store's path names.
    /// - Throws: `OverrideStoreError.unwritable` when the path is a symbolic link that cannot be followed.
    package func bisectStateURL() throws -> URL {
        try layout().bisectState
    }

    /// The bisect in progress, or `nil` when there is none.
    /// - Throws: ``BisectError`` when the state file is corrupt or unreadable (naming it).
    package func bisectSession() throws -> BisectSession? {
        try Self.bisectSession(at: try layout().bisectState)
    }

    /// The bisect in progress according to the state file at `url`, or `nil` when there is none.
    private static func bisectSession(at url: URL) throws(BisectError) -> BisectSession? {
        guard let data = try readBisectState(url) else { return nil }
        return try BisectStateFile.decode(data, path: url.path)
    }

    /// Starts a bisect: the overrides in force (or those whose keys match `pattern`) become the candidates, and
    /// the first half of them is applied (the others removed). With one candidate the bisect is done at once and
    /// the store is not changed.
    ///
    /// Overrides that have expired are not candidates. The start time is the store's wall clock.
    /// - Parameter pattern: a key glob (`checkout.*`: `*` any run of characters, `?` one), or `nil` for every
    ///   override.
    /// - Returns: the session.
    /// - Throws: ``BisectError`` (a bisect in progress, no candidates, a corrupt state file), or the store's error.
    @discardableResult
    package func startBisect(matching pattern: String? = nil) throws -> BisectSession {
        try writtenSession { session, current, expiries, now in
            if let session {
                throw BisectError(code: .alreadyStarted(startedAt: session.startedAt, step: session.step))
            }
            let matcher = pattern.map(KeyPattern.init)
            let candidates = current.filter { matcher?.matches($0.key) ?? true }
            let started = try BisectSession(
                startedAt: now, pattern: pattern, candidates: candidates, expiries: expiries)
            return .write(started, started.expectedOverrides(at: now))
        }
    }

    /// Records an answer for the step in force and applies the next one (or, once the culprit is known, the
    /// culprit alone among the candidates).
    /// - Parameter answer: whether the problem appeared with the overrides under test.
    /// - Returns: the session after the answer.
    /// - Throws: ``BisectError`` (no bisect, already done, a candidate changed since the step was applied, a
    ///   corrupt state file), or the store's error; nothing is changed then.
    @discardableResult
    package func answerBisect(_ answer: BisectAnswer) throws -> BisectSession {
        try answerBisect(answer, validating: { _ in })
    }

    /// ``answerBisect(_:)``, checking the values the next step would apply with `validate` first (a hand-edited
    /// state file can hold values no member accepts); on error nothing is written.
    package func answerBisect(
        _ answer: BisectAnswer, validating validate: ([String: OverrideEdit]) throws -> Void
    ) throws -> BisectSession {
        try writtenSession { session, current, _, now in
            guard let session else { throw BisectError(code: .noSession) }
            if let culprit = session.culprit { throw BisectError(code: .finished(culprit: culprit)) }
            let drift = session.changedCandidates(in: current, at: now)
            guard drift.isEmpty else { throw BisectError(code: .storeChanged(step: session.step, drift: drift)) }
            let next = try session.answering(answer)
            let applied = next.expectedOverrides(at: now)
            try validate(applied)
            return .write(next, applied)
        }
    }

    /// Ends the bisect: every candidate gets back the value it had when the bisect started (overrides that are
    /// not candidates are left as they are), in one change, and the state file is removed.
    /// - Returns: what was restored, and the candidates someone had changed meanwhile (overwritten).
    /// - Throws: ``BisectError`` (no bisect, a corrupt state file: it is left in place), or the store's error.
    @discardableResult
    package func resetBisect() throws -> BisectResetOutcome {
        try resetBisect(validating: { _ in })
    }

    /// ``resetBisect()``, checking the values it would restore with `validate` first (a hand-edited state file can
    /// hold values no member accepts); on error nothing is written.
    package func resetBisect(validating validate: ([String: OverrideEdit]) throws -> Void) throws
        -> BisectResetOutcome
    {
        var outcome: BisectResetOutcome?
        try bisectTransaction { session, current, _, now in
            guard let session else { throw BisectError(code: .noSession) }
            let original = session.originalOverrides(at: now)
            try validate(original)
            let restored = original.compactMapValues(\.value).filter { current[$0.key] != $0.value }
            outcome = BisectResetOutcome(
                session: session, restored: restored, drift: session.changedCandidates(in: current, at: now))
            return .remove(original)
        }
        guard let outcome else { throw BisectError(code: .noSession) }
        return outcome
    }

    // MARK: Transactions

    /// What a transaction's body sees: the session (if any), the overrides in force, their expiries, and the
    /// store's current time.
    private typealias BisectBody = (
        BisectSession?, [String: OverrideValue], [String: OverrideExpiry], Date
    ) throws -> BisectStep

    /// Runs a transaction that writes a session, and returns it.
    private func writtenSession(_ body: BisectBody) throws -> BisectSession {
        guard let session = try bisectTransaction(body) else { throw BisectError(code: .noSession) }
        return session
    }

    /// What a bisect operation does to the state file, and the changes it makes to the store.
    private enum BisectStep {
        case write(BisectSession, [String: OverrideEdit])
        case remove([String: OverrideEdit])
    }

    /// Runs `body` under the store's lock with the session and the overrides, then writes the store (journaled
    /// as `bisect`; only the keys whose value changes, so the others keep their expiry; candidates applied again
    /// get the expiry they had at the start) and the state file. When the store cannot be written, the state
    /// file is put back as it was.
    @discardableResult
    private func bisectTransaction(_ body: BisectBody) throws -> BisectSession? {
        let layout = try self.layout()
        let url = layout.bisectState
        // The candidates' expiries are fixed at the start; the session is read again under the lock.
        let known = try? Self.bisectSession(at: url)
        var previous: Data?
        var stateWritten = false
        var result: BisectSession?
        do {
            let candidateExpiries = known?.expiries ?? [:]
            _ = try modify(known: nil, parameters: WriteParameters()) { current, note in
                previous = try Self.readBisectState(url)
                let session = try previous.map { data throws(BisectError) in
                    try BisectStateFile.decode(data, path: url.path)
                }
                if let session, session.expiries != known?.expiries ?? [:] {
                    throw BisectError(code: .concurrentChange(path: url.path))
                }
                let expiries = session == nil ? try self.loadSnapshot().expiries : [:]
                let step = try body(session, current, expiries.filter { current[$0.key] != nil }, self.clock.now())
                note.origin = .bisect
                note.profile = nil
                note.undoes = nil
                note.redoes = nil
                func changed(_ changes: [String: OverrideEdit]) -> OverrideChange {
                    OverrideChange(changes.filter { current[$0.key] != $0.value.value }, expiries: candidateExpiries)
                }
                switch step {
                case .write(let next, let changes):
                    try Self.writeBisectState(BisectStateFile.encode(next), of: layout)
                    stateWritten = true
                    result = next
                    return changed(changes)
                case .remove(let changes):
                    try Self.removeBisectState(url)
                    stateWritten = true
                    return changed(changes)
                }
            }
        } catch {
            if stateWritten {
                if let previous {
                    try? Self.writeBisectState(previous, of: layout)
                } else {
                    try? Self.removeBisectState(url)
                }
            }
            throw error
        }
        return result
    }

    private static func readBisectState(_ url: URL) throws(BisectError) -> Data? {
        do {
            return try BoundedFileReader.read(url.path, limit: BisectStateFile.sizeLimit, followingLinks: false)
        } catch {
            switch error {
            case .unreadable(let reason), .notAFile(let reason):
                throw BisectError(code: .unreadableState(path: url.path, reason: reason))
            case .tooLarge:
                throw BisectError(
                    code: .corruptState(
                        path: url.path, reason: "larger than \(describe(bytes: BisectStateFile.sizeLimit))"))
            }
        }
    }

    /// Replaces the state file atomically, never through a link (``OwnFile``); root gives it the store's owner.
    private static func writeBisectState(_ data: Data, of layout: StoreLayout) throws(BisectError) {
        let path = layout.bisectState.path
        do throws(OwnFile.Failure) {
            try OwnFile.writeAtomically(data, to: path, ownerOf: layout.target)
        } catch {
            throw BisectError(code: .unwritableState(path: path, reason: error.reason))
        }
    }

    /// Removes the state file (a link in its place is removed, not what it names).
    private static func removeBisectState(_ url: URL) throws(BisectError) {
        do throws(SystemError) {
            try Platform.removeFile(url.path)
        } catch {
            if error.isNotFound { return }
            throw BisectError(code: .unwritableState(path: url.path, reason: error.description))
        }
    }
}
