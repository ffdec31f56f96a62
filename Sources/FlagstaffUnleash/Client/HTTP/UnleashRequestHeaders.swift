import Foundation

/// The header fields every Unleash request carries, and the rule for merging custom headers into them.
///
/// Custom headers (static, and from a provider closure read on every request) are added after the client's
/// own, but they can never replace `Authorization`, `Content-Type`, `If-None-Match` or any `unleash-*` field:
/// those are ignored, as are fields whose name is not an HTTP token or whose value holds a line break (they
/// could smuggle extra header lines). `Authorization` is protected because the client key is the one way to
/// authenticate; a gateway that needs its own credential can use another field.
package enum UnleashRequestHeaders {
    /// The SDK identifier sent as `unleash-sdk`: `flagstaff:<version>`.
    package static let sdkIdentifier = "flagstaff:\(sdkVersion)"
    /// This library's version.
    package static let sdkVersion = "0.1.0"
    /// The Unleash client specification version the engine passes in full, sent as `Unleash-Client-Spec` and
    /// `specVersion` by the server-side client.
    package static let specificationVersion = "6.1.0"
    /// The platform reported as `platformName` (registration and metrics of the server-side client).
    package static let platformName = "swift"
    /// The Swift compiler version the library was built with, reported as `platformVersion`.
    package static var platformVersion: String {
        #if compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #elseif compiler(>=6.1)
        "6.1"
        #else
        "6.0"
        #endif
    }

    /// Whether a custom header with this name is ignored because the client owns it.
    /// - Parameter name: The header name, in any case.
    /// - Returns: `true` for `authorization`, `content-type`, `if-none-match` and `unleash-*`.
    package static func isReserved(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["authorization", "content-type", "if-none-match"].contains(lower) || lower.hasPrefix("unleash-")
    }

    /// Whether a header field could be sent as is: a token name and a value without line breaks or NUL.
    static func isWellFormed(name: String, value: String) -> Bool {
        let tokenPunctuation = Set("!#$%&'*+-.^_`|~".unicodeScalars)
        let nameOK =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || tokenPunctuation.contains($0))
            }
        let valueOK = !value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
        return nameOK && valueOK
    }

    /// Merges the client's own fields with custom ones.
    /// - Parameters:
    ///   - own: The client's fields, in order.
    ///   - custom: Static custom headers, then the provider's (the provider wins on equal names).
    /// - Returns: The fields to send: the client's, then the accepted custom ones sorted by name.
    static func merge(own: [(name: String, value: String)], custom: [[String: String]]) -> [(
        name: String, value: String
    )] {
        var accepted: [String: (name: String, value: String)] = [:]
        for layer in custom {
            for (name, value) in layer where !isReserved(name) && isWellFormed(name: name, value: value) {
                accepted[name.lowercased()] = (name, value)
            }
        }
        return own + accepted.keys.sorted().compactMap { accepted[$0] }
    }
}
