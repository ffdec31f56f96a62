import Synchronization

/// The task-local seam behind `FlagstaffTesting`'s `withFeature` and `withSetting`: values forced for the
/// current task (and the tasks it creates), invisible to other tasks and never written to an override store.
/// Flags hold `Bool`s, settings values of their own type.
///
/// Package-internal: apps use `withFeature(_:)` from `FlagstaffTesting`. Reading a member checks these values
/// only while a scope that forces that member is open somewhere in the process (``AnyFeature/hasOpenTestScope``:
/// one atomic load from the member otherwise).
@usableFromInline package enum TaskLocalOverrides {
    @TaskLocal static var values: [ObjectIdentifier: any Sendable] = [:]

    /// The value the current task forces for `feature`, if any. Look only while `feature.hasOpenTestScope`.
    @usableFromInline
    static func value(for feature: AnyFeature) -> (any Sendable)? {
        values[ObjectIdentifier(feature)]
    }

    /// Runs `body` with `forced` values visible to this task and its child tasks.
    /// - Parameters:
    ///   - forced: the features to force and their values.
    ///   - body: the code to run.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; the previous values are restored either way.
    package static func with<R>(_ forced: [(AnyFeature, any Sendable)], _ body: () throws -> R) rethrows -> R {
        open(forced)
        defer { close(forced) }
        return try $values.withValue(merged(forced), operation: body)
    }

    /// Runs async `body` with `forced` values visible to this task and its child tasks.
    /// - Parameters:
    ///   - forced: the features to force and their values.
    ///   - body: the code to run.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; the previous values are restored either way.
    package static func with<R>(
        _ forced: [(AnyFeature, any Sendable)], isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        open(forced)
        defer { close(forced) }
        return try await $values.withValue(merged(forced), operation: body, isolation: isolation)
    }

    /// Counts a scope open on each member `forced` names, before its body runs (so that the body's reads, and
    /// its child tasks', see the count).
    private static func open(_ forced: [(AnyFeature, any Sendable)]) {
        for (feature, _) in forced { feature.openTestScopes.add(1, ordering: .relaxed) }
    }

    /// Counts the scope closed on each member `forced` names.
    private static func close(_ forced: [(AnyFeature, any Sendable)]) {
        for (feature, _) in forced { feature.openTestScopes.subtract(1, ordering: .relaxed) }
    }

    private static func merged(_ forced: [(AnyFeature, any Sendable)]) -> [ObjectIdentifier: any Sendable] {
        var current = values
        for (feature, value) in forced { current[ObjectIdentifier(feature)] = value }
        return current
    }
}
