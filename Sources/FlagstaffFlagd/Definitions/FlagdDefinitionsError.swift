/// Why flagd definitions cannot be loaded: the message names the source and the JSON path
/// (`flags.json: $.flags.beta.state: expected "ENABLED" or "DISABLED", found "ON"`).
public struct FlagdDefinitionsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, after the source's name.
    public var description: String

    /// Creates an error with its message.
    public init(_ description: String) {
        self.description = description
    }
}
