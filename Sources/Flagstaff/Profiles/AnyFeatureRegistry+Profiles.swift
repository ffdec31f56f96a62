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
    ///   - parameters: the wait for the lock (the journal's note is the profile's).
    /// - Returns: what changed: key → new value (`nil`: removed), and the write's receipt (`nil` when the profile
    ///   changes nothing).
    /// - Throws: ``InvalidOverrideValue`` or the store's error; on error nothing changes.
    @discardableResult
    package func applyProfile(
        _ profile: Profile, replace: Bool = false, parameters: WriteParameters = WriteParameters()
    ) throws -> (
        changes: [String: OverrideValue?], receipt: WriteReceipt?
    ) {
        let changes = profile.changes(from: storedOverrides, replace: replace) { self.feature(forKey: $0) != nil }
        guard !changes.isEmpty else { return ([:], nil) }
        var parameters = parameters
        parameters.note = ChangeAnnotation(origin: .profile, profile: profile.name)
        return (changes, try writeOverrideValues(changes, parameters: parameters))
    }
}
