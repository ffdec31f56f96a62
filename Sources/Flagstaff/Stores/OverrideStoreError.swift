/// Why an override store could not be read or written. Every case names the file.
public enum OverrideStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file exists but cannot be read (permissions, I/O error).
    case unreadable(path: String, reason: String)
    /// The file is not a valid override file; it is left untouched until repaired.
    case corrupt(path: String, reason: String)
    /// The file (or its directory, or its lock) cannot be written.
    case unwritable(path: String, reason: String)
    /// The URL is not usable as a store location.
    case invalidLocation(String, reason: String)

    /// A message a user can act on.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read the override store \(path): \(reason)"
        case .corrupt(let path, let reason):
            return
                "the override store \(path) is corrupt: \(reason). It was not changed; fix or delete it (until then, flags read their defaults)"
        case .unwritable(let path, let reason):
            return "cannot write the override store \(path): \(reason)"
        case .invalidLocation(let location, let reason):
            return "cannot use \(location) as an override store: \(reason)"
        }
    }
}
