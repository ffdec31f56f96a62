import Foundation

/// Builds the query string of a frontend API request from the client's context.
///
/// The order is fixed so identical contexts give identical URLs (good for caches and ETags): `userId`,
/// `sessionId`, `remoteAddress`, `appName`, `environment`, then `properties[name]` sorted by name. Absent and
/// empty fields are left out. Names and values are percent-encoded, leaving only RFC 3986 unreserved characters.
enum UnleashFrontendQuery {
    /// The query string, without the leading `?`.
    /// - Parameters:
    ///   - context: The context; its `appName` and `environment` win over the client's.
    ///   - appName: The client's application name.
    ///   - environment: The client's environment.
    static func string(context: UnleashContext, appName: String, environment: String) -> String {
        var items: [(String, String?)] = [
            ("userId", context.userId),
            ("sessionId", context.sessionId),
            ("remoteAddress", context.remoteAddress),
            ("appName", context.appName ?? appName),
            ("environment", context.environment ?? environment),
        ]
        for name in context.properties.keys.sorted() {
            items.append(("properties[\(name)]", context.properties[name]))
        }
        return items.compactMap { name, value in
            guard let value, !value.isEmpty else { return nil }
            return encode(name) + "=" + encode(value)
        }.joined(separator: "&")
    }

    private static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `url` with `query` appended (after `?`, or `&` if the URL already has a query).
    static func url(_ url: URL, query: String) -> URL {
        guard !query.isEmpty else { return url }
        let text = url.absoluteString
        let separator = text.contains("?") ? "&" : "?"
        return URL(string: text + separator + query) ?? url
    }
}
