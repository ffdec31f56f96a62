/// A state or delta body could not be used.
public struct UnleashStateError: Error, Sendable, CustomStringConvertible {
    /// The JSON path of the offending value (`features[2].strategies[0].name`); empty for the whole document.
    public let path: String
    /// What was wrong and what was expected.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - path: The JSON path of the offending value.
    ///   - message: What was wrong.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// A one-line description naming the path.
    public var description: String {
        path.isEmpty ? "invalid Unleash state: \(message)" : "invalid Unleash state at \(path): \(message)"
    }
}
