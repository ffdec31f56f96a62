/// Applying a profile to a registry.
extension AnyFeatureRegistry {
    /// Applies a profile in one store write (one undo step), journaled as origin `profile` with its name.
    ///
    /// Values are checked against the members declared under their keys (all or nothing); keys the registry
    /// does not declare are stored as given. A replace also removes the overrides of this registry's members
    /// the profile does not mention; overrides of keys the registry does not declare are kept.
    /// - Parameters:
    ///   - profile: the profile.
    ///   - replace: whether to clear the registry's other overrides.
    /// - Returns: what changed: key → new value (`nil`: removed).
    /// - Throws: ``InvalidOverrideValue`` or the store's error; on error nothing changes.
    @discardableResult
    package func applyProfile(_ profile: Profile, replace: Bool = false) throws -> [String: OverrideValue?] {
        let changes = profile.changes(from: storedOverrides, replace: replace) { self.feature(forKey: $0) != nil }
        guard !changes.isEmpty else { return [:] }
        let annotation = ChangeAnnotation(origin: .profile, profile: profile.name)
        try ChangeAnnotation.$current.withValue(annotation) { try setOverrideValues(changes) }
        return changes
    }
}
