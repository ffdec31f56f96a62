/// Bisecting a registry's overrides (``FileOverrideStore``'s bisect), the registry reading its store again after each
/// step, so its members and subscribers see each step at once.
package struct Bisection {
    /// The registry whose overrides are bisected.
    package let registry: AnyFeatureRegistry

    /// The bisect of `registry`'s store.
    package init(_ registry: AnyFeatureRegistry) {
        self.registry = registry
    }

    /// The bisect in progress on the registry's store, or `nil`.
    /// - Throws: ``BisectError`` (also when the store is not a file store) naming the state file.
    package func session() throws -> BisectSession? {
        try bisectStore().bisectSession()
    }

    /// Starts a bisect on the registry's store (``FileOverrideStore/startBisect(matching:)``) and applies
    /// the result.
    /// - Parameter pattern: a key glob, or `nil` for every override.
    /// - Returns: the session.
    /// - Throws: ``BisectError``, or the store's error.
    @discardableResult
    package func start(matching pattern: String? = nil) throws -> BisectSession {
        defer { registry.refreshFromStore() }
        return try bisectStore().startBisect(matching: pattern)
    }

    /// Answers the step in force (``FileOverrideStore/answerBisect(_:)``) and applies the next one, each value it
    /// applies checked against its member as ``AnyFeatureRegistry/setOverrideValues(_:expiresAt:)`` checks it.
    /// - Returns: the session after the answer.
    /// - Throws: ``BisectError``, ``InvalidOverrideValue`` naming a key and a value from the state file its member
    ///   refuses (nothing is changed), or the store's error.
    @discardableResult
    package func answer(_ answer: BisectAnswer) throws -> BisectSession {
        defer { registry.refreshFromStore() }
        return try bisectStore().answerBisect(answer) { changes in
            try validate(changes, while: "applying the next bisect step")
        }
    }

    /// Ends the bisect, restoring the candidates' values from before the start (``FileOverrideStore/resetBisect()``),
    /// each checked against its member as ``AnyFeatureRegistry/setOverrideValues(_:expiresAt:)`` checks it.
    /// - Returns: what was restored.
    /// - Throws: ``BisectError``, ``InvalidOverrideValue`` naming a key and a value from the state file its member
    ///   refuses (nothing is changed), or the store's error.
    @discardableResult
    package func reset() throws -> BisectResetOutcome {
        defer { registry.refreshFromStore() }
        return try bisectStore().resetBisect { changes in
            try validate(changes, while: "restoring the values from before the bisect")
        }
    }

    /// ``validate(_:)``, its refusal saying what the bisect was doing and that nothing was changed.
    private func validate(_ changes: [String: OverrideEdit], while doing: String) throws {
        do {
            try registry.validate(changes)
        } catch var invalid as InvalidOverrideValue {
            invalid.reason += " (\(doing)); nothing was changed"
            throw invalid
        }
    }

    private func bisectStore() throws(BisectError) -> FileOverrideStore {
        guard let store = registry.fileStore else { throw BisectError(code: .notFileStore) }
        return store
    }
}
