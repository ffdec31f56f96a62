import Flagstaff

/// Runs `body` with `setting` forced to `value`, for tests:
///
/// ```swift
/// @Test func cardsUseTheForcedColor() {
///     withSetting(features.cardColor, value: "#000000") {
///         #expect(render().background == "#000000")
///     }
/// }
/// ```
/// Like `withFeature`: the value is task-local (visible to the closure and the tasks it creates, not to tests
/// running in parallel), nothing is written to the override store, the previous state is restored when the
/// closure returns or throws, and the value wins over the override, the remote value and the default
/// (`setting.source` is `.testOverride`). The value is not checked against the setting's range or choices, so a
/// test can also see how code copes with a value QA could not set.
/// - Parameters:
///   - setting: the setting to force.
///   - value: the value it has inside `body`.
///   - body: the code to run.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws.
public func withSetting<Value: SettingValue, R>(_ setting: Setting<Value>, value: Value, _ body: () throws -> R)
    rethrows -> R
{
    try TaskLocalOverrides.with([(setting, value)], body)
}

/// Runs async `body` with `setting` forced to `value` (see the synchronous form).
/// - Parameters:
///   - setting: the setting to force.
///   - value: the value it has inside `body`.
///   - isolation: the caller's actor (inferred).
///   - body: the code to run.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws.
public func withSetting<Value: SettingValue, R>(
    _ setting: Setting<Value>, value: Value, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> R
) async rethrows -> R {
    try await TaskLocalOverrides.with([(setting, value)], isolation: isolation, body)
}
