import Foundation

/// One HTTP request an Unleash client sends.
struct UnleashHTTPRequest: Sendable {
    var method: String
    var url: URL
    /// Header fields in the order they are set; names are compared case-insensitively by the server.
    var headers: [(name: String, value: String)]
    var body: Data?
}

/// What the server answered.
struct UnleashHTTPResponse: Sendable {
    var status: Int
    /// Header fields with lower-cased names.
    var headers: [String: String]
    var body: Data

    /// The value of a header field, looked up case-insensitively.
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}
