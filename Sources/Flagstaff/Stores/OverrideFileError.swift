/// Why an override document (a store file, or a file given to `flagstaff import`) was refused: the file,
/// where in it (a JSON path that names the key for a bad entry) and what was expected.
///
/// `FileOverrideStore` reports it as `OverrideStoreError.corrupt`; the command line prints ``description``.
package struct OverrideFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as given (a path, or e.g. `standard input`).
    package var file: String
    /// The JSON path of the problem: `$`, `$.version`, `$.overrides["blueText"]`; `nil` when the text is not
    /// JSON at all.
    package var path: String?
    /// The override key of a bad entry, if the problem is one entry.
    package var key: String?
    /// What was expected and what was found: `expected "on" or "off", found "maybe"`.
    package var problem: String

    /// Creates an error.
    /// - Parameters:
    ///   - file: the file, as given.
    ///   - path: the JSON path, if the text is JSON.
    ///   - key: the override key of a bad entry.
    ///   - problem: what was expected and found.
    package init(file: String, path: String?, key: String? = nil, problem: String) {
        self.file = file
        self.path = path
        self.key = key
        self.problem = problem
    }

    /// The problem with its place, without the file: `$.overrides["blueText"]: expected "on" or "off", found "maybe"`.
    package var reason: String {
        (path.map { "\($0): " } ?? "") + problem
    }

    /// `in.json: $.overrides["blueText"]: expected "on" or "off", found "maybe"`.
    package var description: String {
        "\(file): \(reason)"
    }
}
