import Synchronization

/// The task-local seam behind `FlagstaffTesting`'s `withFeature` and `withSetting`: values forced for the
/// current task (and the tasks it creates), invisible to other tasks and never written to an override store.
/// Flags hold `Bool`s, settings values of their own type.
///
/// Package-internal: apps use `withFeature(_:)` from `FlagstaffTesting`. Reading a flag checks these values
/// only while at least one scope is open anywhere in the process (one atomic load otherwise).
@usableFromInline package enum TaskLocalOverrides {
    @TaskLocal static var values: [ObjectIdentifier: any Sendable] = [:]
    @usableFromInline static let openScopes = Atomic<Int>(0)

    @inlinable static var isActive: Bool { openScopes.load(ordering: .relaxed) > 0 }

    @usableFromInline static func value(for feature: AnyFeature) -> (any Sendable)? {
        values[ObjectIdentifier(feature)]
    }

    /// Runs `body` with `forced` values visible to this task and its child tasks.
    /// - Parameters:
    ///   - forced: the features to force and their values.
    ///   - body: the code to run.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; the previous values are restored either way.
    package static func with<R>(_ forced: [(AnyFeature, any Sendable)], _ body: () throws -> R) rethrows -> R {
        openScopes.add(1, ordering: .relaxed)
        defer { openScopes.subtract(1, ordering: .relaxed) }
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
        openScopes.add(1, ordering: .relaxed)
        defer { openScopes.subtract(1, ordering: .relaxed) }
        return try await $values.withValue(merged(forced), operation: body, isolation: isolation)
    }

    private static func merged(_ forced: [(AnyFeature, any Sendable)]) -> [ObjectIdentifier: any Sendable] {
        var current = values
        for (feature, value) in forced { current[ObjectIdentifier(feature)] = value }
        return current
    }
}
