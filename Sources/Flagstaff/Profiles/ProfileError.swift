/// Why a profile could not be named, read, written or deleted. Every case names the profile or its file.
///
/// A struct wrapping a code, so that cases can be added without breaking callers; read ``description``.
package struct ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Code: Sendable, Equatable {
        case invalidName(String, reason: String)
        case notFound(String, folder: String)
        case malformed(OverrideFileError)
        case io(path: String, reason: String)
    }

    let code: Code

    /// Whether the profile does not exist.
    package var isNotFound: Bool {
        if case .notFound = code { return true }
        return false
    }

    /// Whether the name was refused.
    package var isInvalidName: Bool {
        if case .invalidName = code { return true }
        return false
    }

    /// The message: the profile or file, and what is wrong.
    package var description: String {
        switch code {
        case .invalidName(let name, let reason):
            return "invalid profile name \(JSONText.quoted(name, alsoEscaping: TextSanitizer.isUnsafe)): \(reason)"
        case .notFound(let name, let folder):
            return "no profile named \(name) in \(folder) (see 'flagstaff profile list')"
        case .malformed(let error):
            return "the profile \(error.description)"
        case .io(let path, let reason):
            return "\(path): \(reason)"
        }
    }
}
