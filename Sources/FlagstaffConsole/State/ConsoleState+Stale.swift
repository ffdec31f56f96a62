import Flagstaff
import Foundation

extension ConsoleState {
    /// The scope bar's entries, in cycle order: the registry's scopes, then `Stale`.
    package var scopeTitles: [(title: String, isActive: Bool)] {
        SearchScope.allCases.map { ($0.title, !showsStale && $0 == scope) } + [("Stale", showsStale)]
    }

    /// Moves to the next or previous scope: All → On → Off → Overridden → Stale → All.
    mutating func cycleScope(forward: Bool) {
        if showsStale {
            showsStale = false
            scope = forward ? .all : .overridden
        } else if forward ? scope == .overridden : scope == .all {
            showsStale = true
            scope = .all
        } else {
            scope = forward ? scope.next : scope.previous
        }
        rebuildRows()
    }

    /// The selected row's stale override, in the `Stale` scope.
    package var selectedStale: StaleOverride? {
        guard showsStale, let key = selectedKey else { return nil }
        return staleOverrides[key]
    }

    /// Why `action` may not act on the selected orphan (an override of a key the registry does not declare):
    /// only `r` (removing it) makes sense; `nil` when it may.
    func staleRefusal(for action: ConsoleAction) -> String? {
        switch action {
        case .force, .flip, .edit, .activate, .expiry(.open): break
        default: return nil
        }
        guard let stale = selectedStale, stale.kind == .orphan else { return nil }
        return "\(stale.key) is not in this registry (orphan): r removes its override"
    }

    /// What the workflow features do after overrides changed: the `Stale` scope is rebuilt, and the profile
    /// picker reads its diffs again.
    mutating func workflowEffects() -> [ConsoleEffect] {
        if showsStale { rebuildRows() }
        return mode.kind == .profiles ? [.loadProfiles] : []
    }
}
