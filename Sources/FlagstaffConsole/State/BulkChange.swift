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
    /// The members changed, and what was left out.
    package var targets: BulkTargets

    /// The value written to every member (`nil` removes the override).
    package var value: OverrideValue? {
        switch kind {
        case .forceOn: .on
        case .forceOff: .off
        case .reset: nil
        }
    }

    /// Marked settings left out because they are not on/off (`o` and `x` only).
    package var skippedSettings: Int { targets.skippedSettings }
    /// Marked flags left out because their value is fixed at launch.
    package var skippedAtLaunch: Int { targets.skippedAtLaunch }

    /// `Force OFF 134 marked flags`: the question.
    package var question: String {
        let count = targets.members.count
        let noun = count == 1 ? "flag" : "flags"
        switch kind {
        case .forceOn: return "Force ON \(count) marked \(noun)"
        case .forceOff: return "Force OFF \(count) marked \(noun)"
        case .reset: return "Reset \(count) marked \(noun) to the default"
        }
    }

    /// The footer once the change is saved: `Forced OFF 12 marked flags · 2 settings skipped (not on/off) · u undoes
    /// it`. Every marked on/off member is forced, as `o`/`x` force one flag (an override even where the flag's
    /// default already gives the value).
    /// - Parameter dot: the separator, with its spaces.
    package func savedMessage(dot: String) -> String {
        let count = targets.members.count
        let noun = count == 1 ? "flag" : "flags"
        let word = kind == .forceOn ? "ON" : "OFF"
        let skipped = skippedNote.map { dot + $0 } ?? ""
        let message =
            kind == .reset ? "Reset \(count) marked \(noun) to the default" : "Forced \(word) \(count) marked \(noun)"
        return message + skipped + dot + "u undoes it"
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

/// The marked members a bulk change acts on (by ``AnyFeature/registryOrdinal``), and how many marked ones it leaves
/// out and why.
package struct BulkTargets: Sendable, Equatable {
    /// The members changed.
    package var members = MemberSet()
    /// Marked settings left out because they are not on/off.
    package var skippedSettings = 0
    /// Marked flags left out because their value is fixed at launch.
    package var skippedAtLaunch = 0

    /// No members.
    package init() {}
}
