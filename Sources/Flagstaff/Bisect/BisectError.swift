import Foundation

/// Why a bisect operation was refused or failed. Unless ``description`` says otherwise, nothing was changed.
///
/// A struct wrapping a code, so that cases can be added without breaking callers; read ``description``.
package struct BisectError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: Sendable, Equatable {
        case notFileStore
        case noSession
        case alreadyStarted(startedAt: Date, step: Int)
        case noCandidates(pattern: String?)
        case finished(culprit: String)
        case storeChanged(step: Int, drift: [BisectDrift])
        case invalidSession(String)
        case concurrentChange(path: String)
        case corruptState(path: String, reason: String)
        case unreadableState(path: String, reason: String)
        case unwritableState(path: String, reason: String)
    }

    package let code: Code

    /// Creates an error.
    package init(code: Code) { self.code = code }

    /// Whether no bisect is in progress.
    package var isNoSession: Bool { code == .noSession }

    /// The candidates someone changed since the current step was applied (empty for other errors).
    package var drift: [BisectDrift] {
        if case .storeChanged(_, let drift) = code { return drift }
        return []
    }

    /// Whether the state file beside the store cannot be read as a bisect session.
    package var isCorruptState: Bool {
        if case .corruptState = code { return true }
        return false
    }

    /// A message naming what is wrong (the key, the file and the reason).
    package var description: String {
        switch code {
        case .notFileStore:
            return "bisect needs a file override store (its state is kept in a file beside the store)"
        case .noSession:
            return "no bisect in progress"
        case .alreadyStarted(let startedAt, let step):
            return "a bisect is already in progress (started \(JournalTime.text(startedAt)), at step \(step))"
        case .noCandidates(let pattern):
            if let pattern {
                return
                    "no override matches \(JSONText.quoted(pattern, alsoEscaping: TextSanitizer.isUnsafe)): nothing to bisect"
            }
            return "there are no overrides: nothing to bisect (bisect looks for the override that causes a problem)"
        case .finished(let culprit):
            return "the bisect is done: the culprit is \(TextSanitizer.sanitize(culprit))"
        case .storeChanged(let step, let drift):
            let list = drift.prefix(5).map(\.description).joined(separator: "; ")
            let more = drift.count > 5 ? "; and \(drift.count - 5) more" : ""
            return
                "the store changed since bisect applied step \(step): \(list)\(more); an answer now would not be about the overrides under test"
        case .invalidSession(let reason):
            return "invalid bisect session: \(reason)"
        case .concurrentChange(let path):
            return "another process changed the bisect state \(path) at the same time; try again"
        case .corruptState(let path, let reason):
            return "the bisect state \(path) is not valid: \(reason)"
        case .unreadableState(let path, let reason):
            return "cannot read the bisect state \(path): \(reason)"
        case .unwritableState(let path, let reason):
            return "cannot write the bisect state \(path): \(reason)"
        }
    }
}
