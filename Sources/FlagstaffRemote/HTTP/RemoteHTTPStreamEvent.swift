import Foundation

/// What a long-lived HTTP response delivers, in order: the status and headers, body bytes as they arrive, and
/// the end.
package enum RemoteHTTPStreamEvent: Sendable, Equatable {
    /// The status line and headers (names lower-cased).
    case response(status: Int, headers: [String: String])
    /// The next bytes of the body, as they arrived.
    case data(Data)
    /// The exchange ended: `nil` when the server closed the body normally, else why it failed.
    case finished(RemoteHTTPError?)
}
