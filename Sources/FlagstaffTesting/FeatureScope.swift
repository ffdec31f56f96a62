import Flagstaff

/// Forces one or more flags for the duration of a closure, for tests.
///
/// ```swift
/// @Test func showsBlueText() {
///     withFeature(features.blueText).enabled {
///         #expect(render().contains("blue"))
///     }
/// }
/// ```
/// Forced values are task-local: they are visible to the code in the closure and to tasks it creates (child
/// tasks, `async let`, task groups), not to other tests running in parallel, and nothing is written to the
/// override store. The previous state is restored when the closure returns or throws. A forced value wins
/// over the flag's override, remote value and default; `feature.resolution.source` is `.testOverride`.
public struct FeatureScope: Sendable {
    /// The flags this scope forces.
    public let features: [AnyFeature]

    /// Creates a scope for the given flags (prefer `withFeature(_:)` / `withFeatures(_:)`).
    public init(features: [AnyFeature]) {
        self.features = features
    }

    /// Runs `body` with every flag of the scope forced on.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func enabled<R>(_ body: () throws -> R) rethrows -> R {
        try forced(true, body)
    }

    /// Runs `body` with every flag of the scope forced off.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func disabled<R>(_ body: () throws -> R) rethrows -> R {
        try forced(false, body)
    }

    /// Runs async `body` with every flag of the scope forced on.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func enabled<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async rethrows
        -> R
    {
        try await forced(true, isolation: isolation, body)
    }

    /// Runs async `body` with every flag of the scope forced off.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func disabled<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async rethrows
        -> R
    {
        try await forced(false, isolation: isolation, body)
    }

    /// Runs `body` with every flag of the scope forced to `value`.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func forced<R>(_ value: Bool, _ body: () throws -> R) rethrows -> R {
        try TaskLocalOverrides.with(features.map { ($0, value) }, body)
    }

    /// Runs async `body` with every flag of the scope forced to `value`.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func forced<R>(_ value: Bool, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R)
        async rethrows -> R
    {
        try await TaskLocalOverrides.with(features.map { ($0, value) }, isolation: isolation, body)
    }
}

/// A scope forcing one flag: `withFeature(f).enabled { … }`, `.disabled { … }`.
/// - Parameter feature: the flag to force.
public func withFeature(_ feature: AnyFeature) -> FeatureScope {
    FeatureScope(features: [feature])
}

/// A scope forcing several flags to the same value: `withFeatures([f, g]).enabled { … }`.
/// - Parameter features: the flags to force.
public func withFeatures(_ features: [AnyFeature]) -> FeatureScope {
    FeatureScope(features: features)
}

/// Runs `body` with each flag forced to its own value: `withFeatures([f: true, g: false]) { … }`.
/// - Parameters:
///   - values: flags (by object) and the values to force.
///   - body: the code to run.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws.
public func withFeatures<R>(_ values: KeyValuePairs<AnyFeature, Bool>, _ body: () throws -> R) rethrows -> R {
    try TaskLocalOverrides.with(values.map { ($0.key, $0.value) }, body)
}
