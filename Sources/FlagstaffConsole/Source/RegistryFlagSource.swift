import Flagstaff
import Foundation

/// A ``AnyFeatureRegistry`` as the console reads it.
///
/// Search adds value matches to the registry's search: the registry's index knows keys, labels, groups and
/// descriptions, not values, so the typed settings whose current value contains the query are appended after
/// its results (the settings are listed once per registry size; a search reads only their values).
package struct RegistryFlagSource: ConsoleFlagSource {
    /// The registry.
    package let registry: AnyFeatureRegistry
    private let settings = SettingList()
    /// Whether any value was fixed at launch (read once: without any, a bulk change reads no member's launch value).
    private let hasLaunchOverrides: Bool
    /// The bisect banner as last read, with the registry's ``AnyFeatureRegistry/reloadGeneration`` then: a bisect
    /// is started, answered or ended through the store (another process, or a bisect step that re-reads it), so a
    /// change of a flag in the console reads no bisect file.
    private let bisect = BisectBannerCache()

    /// Wraps a registry.
    package init(_ registry: AnyFeatureRegistry) {
        self.registry = registry
        self.hasLaunchOverrides = !registry.options.launchOverrides.values.isEmpty
    }

    package var name: String { registry.name }

    package var flagCount: Int { registry.allFeatures.count }

    package func notableStatuses() -> [ConsoleFlagStatus] {
        // Atomic loads only for the ordinary flags: their keys are not read.
        registry.allFeatures.lazy.filter { $0.isOverridden || $0.isPendingRestart }.map(Self.status)
    }

    package func notableMembers() -> NotableMembers {
        var notable = NotableMembers()
        for (ordinal, member) in registry.allFeatures.enumerated() {
            if member.isOverridden { notable.overridden.insert(ordinal) }
            if member.requiresRestart, member.isPendingRestart { notable.pendingRestart.insert(ordinal) }
        }
        return notable
    }

    package func status(forKey key: String) -> ConsoleFlagStatus? {
        registry.feature(forKey: key).map(Self.status)
    }

    package func flag(forKey key: String) -> ConsoleFlag? {
        guard let member = registry.feature(forKey: key) else { return nil }
        guard let feature = member as? AnyFlag else {
            var flag = ConsoleFlag(setting: member)
            flag.expiry = flag.isOverridden ? registry.overrideExpiry(forKey: key) : nil
            return flag
        }
        var flag = ConsoleFlag(
            key: feature.key, label: feature.label, description: feature.description, groupPath: feature.groupPath,
            kind: feature.kind, requiresRestart: feature.requiresRestart, resolution: feature.resolution,
            defaultValue: feature.computedDefault, override: feature.untrackedOverride, launchValue: feature.launchValue
        )
        flag.isPendingRestart = feature.isPendingRestart
        flag.expiry = flag.isOverridden ? registry.overrideExpiry(forKey: key) : nil
        return flag
    }

    package func outline() -> ConsoleOutline {
        func outlineGroup(_ group: RegistryGroup) -> ConsoleOutline.Group {
            ConsoleOutline.Group(
                id: group.keyPath.joined(separator: "."), label: group.label,
                keys: Self.keys(of: group.features),
                subgroups: group.subgroups.map(outlineGroup)
            )
        }
        return ConsoleOutline(
            rootKeys: Self.keys(of: registry.rootFeatures), groups: registry.groups.map(outlineGroup))
    }

    package func search(_ query: String, scope: SearchScope) -> any LiveSearchHits {
        let results = registry.search(query, scope: scope)
        let matches = settings.valueMatches(of: registry, query: query).filter(scope.includes)
        guard !matches.isEmpty else { return results }
        // Settings the registry found by name stay where its ranking put them: one pass over the results'
        // registry positions (no result made, no key read), and only when some value matched.
        let extra = results.notIncluded(matches)
        guard !extra.isEmpty else { return results }
        return ValueMatchedHits(results: results, valueMatches: extra.map { ($0.key, $0.registryOrdinal) })
    }

    package var remoteSources: [any RemoteSource] { registry.remoteSources }

    package var storeErrorMessage: String? { registry.storeError.map { "\($0)" } }

    package func ordinal(forKey key: String) -> Int? {
        registry.feature(forKey: key)?.registryOrdinal
    }

    package func key(atOrdinal ordinal: Int) -> String? {
        let members = registry.allFeatures
        return members.indices.contains(ordinal) ? members[ordinal].key : nil
    }

    package func bulkTargets(of marks: MemberSet, onOffOnly: Bool) -> BulkTargets {
        // The member list read once; each member's type and (with launch overrides only) resolution read directly.
        let members = registry.allFeatures
        var targets = BulkTargets()
        targets.members.reserveCapacity(upTo: members.count)
        marks.forEach { ordinal in
            guard ordinal < members.count else { return }
            let member = members[ordinal]
            if onOffOnly, member.settingType != .boolean {
                targets.skippedSettings += 1
            } else if hasLaunchOverrides, member.launchOverrideValue != nil {
                targets.skippedAtLaunch += 1
            } else {
                targets.members.insert(ordinal)
            }
        }
        return targets
    }

    package var now: Date { registry.now }

    package func expiredOverrides() -> [String: OverrideExpiry] { registry.expiredOverrideExpiries }

    package var bisectBanner: BisectBanner? {
        let generation = registry.reloadGeneration
        if let cached = bisect.cached.withLock({ $0 }), cached.generation == generation { return cached.banner }
        // An unreadable session file shows no banner here; `flagstaff bisect status` reports it.
        let banner = ((try? Bisection(registry).session()) ?? nil).map(BisectBanner.init)
        bisect.cached.withLock { $0 = (generation, banner) }
        return banner
    }

    package func staleOverrides() -> [StaleOverride] {
        RegistryDoctor(registry).diagnose().findings.compactMap { finding -> StaleOverride? in
            guard let key = finding.key else { return nil }
            let kind: StaleOverride.Kind
            switch finding.kind {
            case .orphan: kind = .orphan
            case .noOp: kind = .noOp
            case .expired: kind = .expired
            default: return nil
            }
            return StaleOverride(
                key: key, kind: kind, value: finding.storedValue, message: finding.message,
                ordinal: registry.feature(forKey: key)?.registryOrdinal)
        }.sorted { $0.key < $1.key }
    }

    /// The keys and ordinals of some members, copied.
    private static func keys(of features: [AnyFeature]) -> ConsoleKeyList {
        ConsoleKeyList(keys: features.map(\.key), ordinals: features.map(\.registryOrdinal))
    }

    private static func status(_ feature: AnyFeature) -> ConsoleFlagStatus {
        guard let flag = feature as? AnyFlag else {
            return ConsoleFlagStatus(
                key: feature.key, currentValue: feature.currentValue, overrideValue: feature.overrideValue,
                isBoolean: feature.settingType == .boolean, isPendingRestart: feature.isPendingRestart)
        }
        return ConsoleFlagStatus(
            key: flag.key, value: flag.untrackedEnabled, override: flag.untrackedOverride,
            isPendingRestart: flag.isPendingRestart)
    }
}

/// The bisect banner as last read, with the registry's reload generation then (``RegistryFlagSource/bisectBanner``).
final class BisectBannerCache: Sendable {
    let cached = AnnotatedMutex<(generation: UInt64, banner: BisectBanner?)?>(nil)
}

/// The registry's typed settings, listed again only when the number of members changed (members are only
/// ever added), with each one's value as shown, folded for matching (made again only when the value changed).
final class SettingList: Sendable {
    private struct Cache {
        var count = -1
        var members: [AnyFeature] = []
        /// Per member: the value (JSON) the folded text was made from, and the text's UTF-8 bytes.
        var folded: [ObjectIdentifier: (json: String, text: [UInt8])] = [:]
    }

    private let cache = AnnotatedMutex(Cache())

    /// The settings whose current value, as a person reads it, contains `query` (ignoring case and
    /// diacritics), in declaration order; none for a blank query.
    func valueMatches(of registry: AnyFeatureRegistry, query: String) -> [AnyFeature] {
        let needle = Self.fold(query.trimmingCharacters(in: .whitespaces))
        guard !needle.isEmpty else { return [] }
        let count = registry.allFeatures.count
        return cache.withLock { cache in
            if cache.count != count {
                cache.count = count
                cache.members = registry.allFeatures.filter { !($0 is AnyFlag) }
            }
            return cache.members.filter { member in
                let value = member.currentValue
                let id = ObjectIdentifier(member)
                if let known = cache.folded[id], known.json == value.json { return Self.find(needle, in: known.text) }
                let text = Self.fold(member.displayText(value))
                cache.folded[id] = (value.json, text)
                return Self.find(needle, in: text)
            }
        }
    }

    /// The text folded (case, diacritics) and precomposed, as UTF-8 bytes: matched bytewise, since
    /// Foundation's `contains` over 1,000 values took about 5 million instructions a keystroke (docs/performance.md).
    private static func fold(_ text: String) -> [UInt8] {
        Array(
            text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                .precomposedStringWithCanonicalMapping.utf8)
    }

    /// Whether `needle` occurs in `text`.
    private static func find(_ needle: [UInt8], in text: [UInt8]) -> Bool {
        guard let first = needle.first, text.count >= needle.count else { return needle.isEmpty }
        var start = 0
        while start <= text.count - needle.count {
            if text[start] == first, text[start..<start + needle.count].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}

/// The registry's search results followed by the settings matched by value only.
struct ValueMatchedHits: LiveSearchHits {
    let results: SearchResults
    let valueMatches: [(key: String, ordinal: Int?)]

    var count: Int { results.count + valueMatches.count }

    func key(at position: Int) -> String {
        position < results.count ? results.key(at: position) : valueMatches[position - results.count].key
    }

    func matchedRanges(at position: Int) -> [SearchField: [Range<Int>]] {
        position < results.count ? results.matchedRanges(at: position) : [:]
    }

    func ordinal(at position: Int) -> Int? {
        position < results.count ? results.ordinal(at: position) : valueMatches[position - results.count].ordinal
    }

    var ordinals: [Int32] { results.ordinals + valueMatches.map { $0.ordinal.map(Int32.init) ?? -1 } }
}

extension SearchResults: LiveSearchHits {
    package func key(at position: Int) -> String { self[position].feature.key }

    package func matchedRanges(at position: Int) -> [SearchField: [Range<Int>]] { self[position].matchedRanges }

    package func ordinal(at position: Int) -> Int? { self[position].feature.registryOrdinal }
}
