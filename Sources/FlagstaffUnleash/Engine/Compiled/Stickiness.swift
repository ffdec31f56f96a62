/// Which context value places a context into a rollout or variant bucket.
enum Stickiness: Sendable, Hashable {
    /// `default`: the user id, else the session id, else random (the reference engine does not fall back to the
    /// remote address, although some older SDKs do).
    case standard
    /// `random`: a fresh random bucket per evaluation.
    case random
    /// A named field; a context without it is not in the rollout (variants fall back to random).
    case field(ContextField)

    /// Parses a `stickiness` setting; absent, empty and `default` all mean ``standard``.
    init(setting: String?) {
        switch setting {
        case nil, "", "default": self = .standard
        case "random": self = .random
        case let name?: self = .field(ContextField(name: name))
        }
    }
}
