/// A restart-requiring flag or setting whose effective value differs from the one the app launched with.
public struct PendingRestart: Sendable, Equatable {
    /// The store key.
    public var key: String
    /// The label (unsanitised).
    public var label: String
    /// A flag's value at launch (`false` for a typed setting: see ``launchText``).
    public var launchValue: Bool
    /// A flag's value now (`false` for a typed setting: see ``currentText``).
    public var currentValue: Bool
    /// A typed setting's value at launch as shown to a person (strings in quotes), or `nil` for a flag.
    public var launchText: String?
    /// A typed setting's value now as shown to a person (strings in quotes), or `nil` for a flag.
    public var currentText: String?

    /// Creates a flag's entry.
    /// - Parameters:
    ///   - key: the store key.
    ///   - label: the label.
    ///   - launchValue: the value at launch.
    ///   - currentValue: the value now.
    public init(key: String, label: String, launchValue: Bool, currentValue: Bool) {
        self.key = key
        self.label = label
        self.launchValue = launchValue
        self.currentValue = currentValue
    }

    /// Creates a typed setting's entry.
    /// - Parameters:
    ///   - key: the store key.
    ///   - label: the label.
    ///   - launchText: the value at launch, as shown.
    ///   - currentText: the value now, as shown.
    public init(key: String, label: String, launchText: String, currentText: String) {
        self.init(key: key, label: label, launchValue: false, currentValue: false)
        self.launchText = launchText
        self.currentText = currentText
    }
}
