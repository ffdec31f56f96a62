import Foundation

/// A context field a constraint, override or stickiness setting names, resolved once at compile time.
enum ContextField: Sendable, Hashable {
    case userId, sessionId, remoteAddress, environment, appName, currentTime
    case property(String)

    /// Maps a context name (`userId`, `country`, …) to a field; unknown names are custom properties.
    init(name: String) {
        switch name {
        case "userId": self = .userId
        case "sessionId": self = .sessionId
        case "remoteAddress": self = .remoteAddress
        case "environment": self = .environment
        case "appName": self = .appName
        case "currentTime": self = .currentTime
        default: self = .property(name)
        }
    }

    /// The field's text in `context`, or `nil` when absent. `currentTime` defaults to now, as in Unleash.
    @inline(__always)
    func value(in context: UnleashContext) -> String? {
        switch self {
        case .userId: return context.userId
        case .sessionId: return context.sessionId
        case .remoteAddress: return context.remoteAddress
        case .environment: return context.environment
        case .appName: return context.appName
        case .currentTime: return RFC3339.format(context.currentTime ?? Date())
        case .property(let name): return context.properties[name]
        }
    }
}
