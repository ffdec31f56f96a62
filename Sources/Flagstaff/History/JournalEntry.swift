import Foundation

/// One line of a store's change journal: one key changed by one change.
///
/// A change that sets several keys at once (a bulk change, a profile apply, an undo) writes one line per key,
/// all with the same ``change`` id; ``HistoryChange`` groups them back.
package struct JournalEntry: Sendable, Equatable {
    /// When the change was written.
    package var time: Date
    /// The id shared by every line of one change.
    package var change: String
    /// The override key.
    package var key: String
    /// The override before the change (`nil`: none).
    package var old: OverrideValue?
    /// The override after the change (`nil`: removed).
    package var new: OverrideValue?
    /// When the override before the change was to expire (`nil`: it had none, or there was no override).
    package var oldExpiresAt: Date?
    /// When the override after the change expires (`nil`: it has none, or there is no override). A line whose
    /// ``old`` and ``new`` are equal records a change of expiry only.
    package var newExpiresAt: Date?
    /// Where the change came from.
    package var origin: ChangeOrigin
    /// The user the writing process ran as.
    package var user: String
    /// The writing process's id.
    package var pid: Int32
    /// The writing process's command line (program name and arguments).
    package var command: String
    /// The profile applied, for a profile change.
    package var profile: String?
    /// The id of the change this one undoes.
    package var undoes: String?
    /// The id of the change this one re-applies.
    package var redoes: String?
    /// How many lines (keys) the whole change wrote, when more than one: the journal's `keys` member, which lets
    /// a reader tell a change whose writer was killed while appending its lines (fewer lines than this) from a
    /// whole one. `nil` for a one-key change, and in journals written before the member existed.
    package var changeKeyCount: Int?

    /// Creates an entry.
    package init(
        time: Date, change: String, key: String, old: OverrideValue?, new: OverrideValue?, origin: ChangeOrigin,
        user: String, pid: Int32, command: String, profile: String? = nil, undoes: String? = nil,
        redoes: String? = nil, oldExpiresAt: Date? = nil, newExpiresAt: Date? = nil, changeKeyCount: Int? = nil
    ) {
        self.changeKeyCount = changeKeyCount
        self.oldExpiresAt = oldExpiresAt
        self.newExpiresAt = newExpiresAt
        self.time = time
        self.change = change
        self.key = key
        self.old = old
        self.new = new
        self.origin = origin
        self.user = user
        self.pid = pid
        self.command = command
        self.profile = profile
        self.undoes = undoes
        self.redoes = redoes
    }
}

/// A line of a journal that could not be read: reported and skipped, never fatal.
package struct JournalProblem: Sendable, Equatable, CustomStringConvertible {
    /// The journal file.
    package var file: String
    /// The line number (1-based).
    package var line: Int
    /// What is wrong, with the JSON path when the line is JSON: `$.old: expected a JSON value`.
    package var reason: String

    /// Creates a problem.
    package init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `overrides.json.history.jsonl:12: $.time: expected …`.
    package var description: String { "\(file):\(line): \(reason)" }
}
