import Flagstaff

/// A change to every marked flag (`o`, `x` or `r` with marks): the values written in one store write, and
/// what was left out and why.
package struct BulkChange: Sendable, Equatable {
    /// What the change does to each flag.
    package enum Kind: Sendable, Equatable {
        /// Force ON (`o`).
        case forceOn
        /// Force OFF (`x`).
        case forceOff
        /// Reset to the default (`r`).
        case reset
    }

    /// What the change does.
    package var kind: Kind
    /// The values written, by key (`nil` removes the override).
    package var values: [String: OverrideValue?]
    /// Marked settings left out because they are not on/off (`o` and `x` only).
    package var skippedSettings: Int
    /// Marked flags left out because their value is fixed at launch.
    package var skippedAtLaunch: Int

    /// `Force OFF 134 marked flags` for the question, `Forced OFF 134 marked flags` once `done`.
    package func summary(done: Bool) -> String {
        let count = values.count
        let noun = count == 1 ? "flag" : "flags"
        switch kind {
        case .forceOn: return (done ? "Forced" : "Force") + " ON \(count) marked \(noun)"
        case .forceOff: return (done ? "Forced" : "Force") + " OFF \(count) marked \(noun)"
        case .reset: return "Reset \(count) marked \(noun) to the default"
        }
    }

    /// What was left out, as a sentence (`2 settings skipped (not on/off)`), or `nil` when nothing was.
    package var skippedNote: String? {
        var parts: [String] = []
        if skippedSettings > 0 {
            parts.append("\(skippedSettings) setting\(skippedSettings == 1 ? "" : "s") skipped (not on/off)")
        }
        if skippedAtLaunch > 0 {
            parts.append("\(skippedAtLaunch) skipped (fixed at launch)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
