import Flagstaff
import FlagstaffRemote
import Foundation

/// Turns a Firebase `:fetch` HTTP response into a ``RemoteConfigFetchResponse`` or a precise error.
///
/// Pure: no I/O, so every response state and malformed shape is unit-testable.
package enum FirebaseFetchResponseParser {
    /// Interprets one HTTP response.
    ///
    /// - 304 → ``RemoteConfigFetchResponse/Content/unchanged``.
    /// - Any other non-200 → ``RemoteConfigProviderError/httpStatus(_:message:)`` with the server's
    ///   `error.message` if the body carries one.
    /// - 200 with a non-JSON `Content-Type`, a body over `maximumBytes`, malformed JSON or a non-object →
    ///   ``RemoteConfigProviderError/invalidResponse(_:)``.
    /// - 200 with `{"error":{…}}` → ``RemoteConfigProviderError/serverError(code:status:message:)``.
    /// - `state`: `UPDATE` → entries; `NO_CHANGE` → unchanged; `EMPTY_CONFIG` → empty; `NO_TEMPLATE` → no
    ///   template; `INSTANCE_STATE_UNSPECIFIED`, a missing or unknown state, or an empty body → unchanged
    ///   (as the Apple SDK, which then leaves the fetched config alone).
    ///
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - headers: The response headers (names in any case).
    ///   - body: The body bytes.
    ///   - maximumBytes: The size limit.
    /// - Returns: The parsed response, with the `ETag` header and `templateVersion`.
    /// - Throws: ``RemoteConfigProviderError`` as listed above.
    package static func parse(
        status: Int, headers: [String: String], body: Data, maximumBytes: Int
    ) throws(RemoteConfigProviderError) -> RemoteConfigFetchResponse {
        let eTag = header("etag", in: headers)
        if status == 304 {
            return RemoteConfigFetchResponse(content: .unchanged, eTag: eTag)
        }
        guard status == 200 else {
            throw .httpStatus(status, message: body.count <= maximumBytes ? errorMessage(in: body) : nil)
        }
        guard body.count <= maximumBytes else {
            throw .invalidResponse("body of \(body.count) bytes exceeds the limit of \(maximumBytes) bytes")
        }
        if let contentType = header("content-type", in: headers), !contentType.lowercased().contains("json") {
            throw .invalidResponse("expected Content-Type application/json, got \(contentType)")
        }
        if body.isEmpty || body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return RemoteConfigFetchResponse(content: .unchanged, eTag: eTag)
        }
        let read: (body: FirebaseFetchBody?, found: String)
        do throws(ReadFailure) {
            read = try FirebaseFetchBody.read(body)
        } catch {
            throw .invalidResponse("malformed JSON: \(JSONValue.SyntaxError(error).message)")
        }
        guard let json = read.body else {
            throw .invalidResponse("expected a JSON object, got \(read.found)")
        }
        if let error = json.error, !json.hasState {
            throw .serverError(code: error.code, status: error.status, message: error.message)
        }
        let templateVersion = json.templateVersion
        switch json.state {
        case "UPDATE":
            if let problem = json.problem { throw .invalidResponse(problem) }
            return RemoteConfigFetchResponse(
                content: .entries(json.entries), templateVersion: templateVersion, eTag: eTag)
        case "NO_CHANGE":
            return RemoteConfigFetchResponse(content: .unchanged, templateVersion: templateVersion, eTag: eTag)
        case "EMPTY_CONFIG":
            return RemoteConfigFetchResponse(content: .empty, templateVersion: templateVersion, eTag: eTag)
        case "NO_TEMPLATE":
            return RemoteConfigFetchResponse(content: .noTemplate, templateVersion: templateVersion, eTag: eTag)
        default:
            return RemoteConfigFetchResponse(content: .unchanged, templateVersion: templateVersion, eTag: eTag)
        }
    }

    /// The `error.message` (or `error.status`) of a Firebase error body, if the body is one.
    static func errorMessage(in body: Data) -> String? {
        guard !body.isEmpty, let error = (try? FirebaseFetchBody.read(body))?.body?.error else { return nil }
        switch (error.status, error.message) {
        case (let status?, let message?): return "\(status): \(message)"
        case (nil, let message?): return message
        case (let status?, nil): return status
        default: return nil
        }
    }

    private static func header(_ name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
