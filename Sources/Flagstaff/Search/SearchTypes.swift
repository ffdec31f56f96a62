/// Which flags a search considers.
public enum SearchScope: String, Sendable, Hashable, CaseIterable {
    /// Every flag.
    case all
    /// Flags (and boolean settings) whose effective value is on.
    case enabled
    /// Flags (and boolean settings) whose effective value is off.
    case disabled
    /// Flags with an override.
    case overridden

    /// Whether `feature` is in this scope right now.
    /// - Parameter feature: the flag.
    public func includes(_ feature: AnyFeature) -> Bool {
        switch self {
        case .all: return true
        case .enabled: return Self.boolean(feature) == true
        case .disabled: return Self.boolean(feature) == false
        case .overridden: return feature.isOverridden
        }
    }

    /// A flag's value, a boolean setting's value, else `nil` (typed settings are neither on nor off).
    private static func boolean(_ feature: AnyFeature) -> Bool? {
        if let flag = feature as? AnyFlag { return flag.untrackedEnabled }
        guard feature.settingType == .boolean else { return nil }
        return feature.currentValue == .on
    }

    /// The next scope in the cycle All → On → Off → Overridden → All.
    package var next: SearchScope {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The previous scope in the cycle.
    package var previous: SearchScope {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + all.count - 1) % all.count]
    }
}

/// A searchable text of a flag.
public enum SearchField: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// `feature.label`.
    case label
    /// `feature.key`.
    case key
    /// `feature.groupPath.joined(separator: " → ")`.
    case groupPath
    /// `feature.description`.
    case description

    /// Orders fields by how much a match in them counts (label first).
    public static func < (lhs: SearchField, rhs: SearchField) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The text of this field for a flag (what `matchedRanges` offsets index into).
    /// - Parameter feature: the flag.
    public func text(of feature: AnyFeature) -> String {
        switch self {
        case .label: return feature.label
        case .key: return feature.key
        case .groupPath: return feature.groupPath.joined(separator: " → ")
        case .description: return feature.description ?? ""
        }
    }
}

/// How well a query matched, best first.
public enum SearchMatchKind: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// The whole field equals the query.
    case exact
    /// The field starts with the query.
    case prefix
    /// The query starts at a word start (after a separator, or at a camelCase hump).
    case wordStart
    /// The query appears inside the field.
    case substring
    /// The query's characters appear in order (key and label only).
    case subsequence
    /// The query was empty: every flag in scope, in declaration order.
    case unfiltered

    /// Orders kinds best first.
    public static func < (lhs: SearchMatchKind, rhs: SearchMatchKind) -> Bool { lhs.rawValue < rhs.rawValue }
}
