/// A manifest could not be used: names the file, the JSON path and what was expected.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or other origin) of the manifest.
    public var source: String
    /// The JSON path of the offending value, e.g. `$.groups[0].flags[2].default`, if known.
    public var path: String?
    /// What was wrong and what was expected.
    public var message: String

    /// Creates an error.
    package init(source: String, path: String?, message: String) {
        self.source = source
        self.path = path
        self.message = message
    }

    /// `manifest.json: $.flags[0].default: expected a boolean (true or false)`.
    public var description: String {
        if let path { return "\(source): \(path): \(message)" }
        return "\(source): \(message)"
    }
}
