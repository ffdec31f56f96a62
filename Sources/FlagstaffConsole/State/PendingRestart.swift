/// A restart-requiring flag whose effective value differs from the one the app launched with.
public struct PendingRestart: Sendable, Equatable {
    /// The flag's store key.
    public var key: String
    /// The flag's label (unsanitised).
    public var label: String
    /// The value at launch.
    public var launchValue: Bool
    /// The value now.
    public var currentValue: Bool
}
