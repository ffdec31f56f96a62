/// Something wrong with how a registry's flags are declared. A registry with problems still works, but the
/// CLI and the console refuse to open it (see `AnyFeatureRegistry.validate()`).
public enum RegistryProblem: Sendable, Hashable, CustomStringConvertible {
    /// Two flags resolve to the same store key, so they would share one override.
    case duplicateKey(String, firstDeclaration: String, secondDeclaration: String)
    /// The same flag object is declared in two places.
    case sameFeatureTwice(firstDeclaration: String, secondDeclaration: String)
    /// A flag's key is empty or otherwise unusable.
    case invalidKey(String, declaration: String, reason: String)
    /// The member already belongs to another registry that is still alive: two registries were made from one
    /// declarations instance. The second leaves it out (its members' state would otherwise be shared).
    case declaredInAnotherRegistry(declaration: String, otherRegistry: String)

    /// A sentence naming the flag(s) and what is wrong.
    public var description: String {
        switch self {
        case .duplicateKey(let key, let first, let second):
            return
                "duplicate key '\(key)': declared by \(first) and by \(second); give one of them another name or an explicit key"
        case .sameFeatureTwice(let first, let second):
            return
                "the same Feature object is declared at \(first) and at \(second); declare a separate Feature for each"
        case .invalidKey(let key, let declaration, let reason):
            return "invalid key '\(key)' at \(declaration): \(reason)"
        case .declaredInAnotherRegistry(let declaration, let other):
            return
                "\(declaration) already belongs to the registry '\(other)', made from the same declarations instance; this registry leaves it out (make each registry from its own instance, e.g. FeatureRegistry(AppFeatures()))"
        }
    }
}

/// Errors thrown by `AnyFeatureRegistry`.
///
/// A struct rather than an enum, so that a new kind of failure can be added without breaking code that handles
/// these errors: ask its properties (``key``, ``problems``, ``isUnknownKey``, …) instead of matching cases. The
/// static members (``unknownKey(_:)``, …) make the errors, as the cases of an enum would.
public struct RegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case problems([RegistryProblem])
        case duplicateKey(existingDeclaration: String)
        case invalidKey(reason: String)
        case notInRegistry
        case unknownKey
    }

    private let code: Code
    /// The key the error is about (`nil` for ``problems(_:)``).
    public let key: String?

    private init(_ code: Code, key: String?) {
        self.code = code
        self.key = key
    }

    /// The registry has declaration problems (see `AnyFeatureRegistry.problems`).
    package static func problems(_ problems: [RegistryProblem]) -> RegistryError {
        RegistryError(.problems(problems), key: nil)
    }

    /// A runtime registration would reuse a key.
    package static func duplicateKey(_ key: String, existingDeclaration: String) -> RegistryError {
        RegistryError(.duplicateKey(existingDeclaration: existingDeclaration), key: key)
    }

    /// A runtime registration had no explicit key or an unusable one.
    package static func invalidKey(_ key: String, reason: String) -> RegistryError {
        RegistryError(.invalidKey(reason: reason), key: key)
    }

    /// The flag does not belong to this registry.
    package static func notInRegistry(_ key: String) -> RegistryError {
        RegistryError(.notInRegistry, key: key)
    }

    /// No flag has this key.
    package static func unknownKey(_ key: String) -> RegistryError {
        RegistryError(.unknownKey, key: key)
    }

    /// The declaration problems, for ``problems(_:)``; else empty.
    public var problems: [RegistryProblem] {
        if case .problems(let problems) = code { return problems }
        return []
    }

    /// Whether a registration would reuse a key another flag has.
    public var isDuplicateKey: Bool {
        if case .duplicateKey = code { return true }
        return false
    }

    /// Whether a registration had no explicit key or an unusable one.
    public var isInvalidKey: Bool {
        if case .invalidKey = code { return true }
        return false
    }

    /// Whether the flag belongs to another registry.
    public var isNotInRegistry: Bool { code == .notInRegistry }

    /// Whether no flag has the key.
    public var isUnknownKey: Bool { code == .unknownKey }

    /// A message a user can act on.
    public var description: String {
        let key = key ?? ""
        switch code {
        case .problems(let problems):
            return "the registry has \(problems.count) problem(s):\n"
                + problems.map { "  - \($0)" }.joined(separator: "\n")
        case .duplicateKey(let existing):
            return "cannot register '\(key)': the key is already used by \(existing)"
        case .invalidKey(let reason):
            return "cannot register '\(key)': \(reason)"
        case .notInRegistry:
            return "the flag '\(key)' does not belong to this registry"
        case .unknownKey:
            return "no flag has the key '\(key)'"
        }
    }
}

/// A value refused for a flag or setting: not valid for its type, range or choices.
public struct InvalidOverrideValue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key.
    public var key: String
    /// The value refused.
    public var value: OverrideValue
    /// What was expected, e.g. `must be 1…100`.
    public var reason: String

    /// Creates an error.
    public init(key: String, value: OverrideValue, reason: String) {
        self.key = key
        self.value = value
        self.reason = reason
    }

    /// `invalid value 500 for "maxItems": must be 1…100`.
    public var description: String {
        "invalid value \(value.summary) for \(JSONText.quoted(key, alsoEscaping: TextSanitizer.isUnsafe)): \(reason)"
    }
}

/// A change a non-throwing setter refused.
public struct RefusedChange: Sendable, Hashable {
    /// The key.
    public var key: String
    /// Why, e.g. `must be 1…100`.
    public var reason: String
}

/// A store entry not valid for the member declared under its key: ignored and left in the file.
public struct StoredValueProblem: Sendable, Hashable, CustomStringConvertible {
    /// The key.
    public var key: String
    /// The stored value.
    public var value: OverrideValue
    /// Why it was refused, e.g. `expected "on" or "off", found 3`.
    public var reason: String

    /// `stored value 3 for "blueText" ignored: expected "on" or "off", found 3`.
    public var description: String {
        "stored value \(value.summary) for \(JSONText.quoted(key, alsoEscaping: TextSanitizer.isUnsafe)) ignored: \(reason)"
    }
}
