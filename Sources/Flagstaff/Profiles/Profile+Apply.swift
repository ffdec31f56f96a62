/// Applying a profile to a registry.
extension Profile {
    /// Applies this profile to `registry` in one store write (one undo step), journaled as origin `profile` with its name.
    ///
    /// Values are checked against the members declared under their keys (all or nothing); keys the registry
    /// does not declare are stored as given. A replace also removes the overrides of this registry's members
    /// the profile does not mention; overrides of keys the registry does not declare are kept.
    /// - Parameters:
    ///   - registry: the registry.
    ///   - replace: whether to clear the registry's other overrides.
    ///   - parameters: the wait for the lock (the journal's note is the profile's).
    /// - Returns: what changed: key → new value (`nil`: removed), and the write's receipt (`nil` when the profile
    ///   changes nothing).
    /// - Throws: ``InvalidOverrideValue`` or the store's error; on error nothing changes.
    @discardableResult
    package func apply(
        to registry: AnyFeatureRegistry, replace: Bool = false, parameters: WriteParameters = WriteParameters()
    ) throws -> (
        changes: [String: OverrideEdit], receipt: WriteReceipt?
    ) {
        let changes = self.changes(from: registry.storedOverrides, replace: replace) {
            registry.feature(forKey: $0) != nil
        }
        guard !changes.isEmpty else { return ([:], nil) }
        var parameters = parameters
        parameters.note = ChangeAnnotation(origin: .profile, profile: name)
        return (changes, try registry.writeOverrideValues(changes, policy: .writeEveryValue, parameters: parameters))
    }
}
