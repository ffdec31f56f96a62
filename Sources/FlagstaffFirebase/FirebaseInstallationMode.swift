/// How a ``FirebaseRemoteConfigProvider`` identifies this client to Firebase (`app_instance_id`,
/// `app_instance_id_token` and the `x-goog-firebase-installations-auth` header).
public enum FirebaseInstallationMode: Sendable, Equatable {
    /// Register a Firebase installation through the Installations REST API, as the Apple SDK does: the
    /// installation ID is created once and persisted with the config's files; the auth token is cached until
    /// an hour before it expires, then refreshed. The default.
    case automatic
    /// Use an installation ID and auth token you obtained yourself (for example from the Firebase SDK of the
    /// host app). An empty token makes every fetch fail with an error that says so.
    case provided(id: String, token: String)
    /// Send no installation at all: no ID, no token, no auth header. Only for servers that do not check
    /// (test stand-ins, proxies that add credentials themselves); the real service refuses such fetches.
    case none
}
