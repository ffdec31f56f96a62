import Flagstaff
import Foundation

/// A bulk evaluation answer (`200` of `POST /ofrep/v1/evaluate/flags`), read strictly enough to trust and
/// leniently enough to follow a newer server: unknown members and event streams of unknown types are ignored.
package struct OFREPBulkAnswer: Sendable, Equatable {
    /// The evaluations by key.
    package var flags: [String: OFREPFlag]
    /// The URLs of the `sse` event streams offered, in order, without repeats.
    package var eventStreams: [URL]

    /// Reads a body.
    /// - Parameters:
    ///   - data: The body.
    ///   - baseURL: The configured base URL: the origin of an `endpoint` without one, and what a relative `url`
    ///     is resolved against.
    /// - Throws: a message naming the member that is wrong and what was expected.
    package static func read(_ data: Data, baseURL: URL) throws(OFREPAnswerError) -> OFREPBulkAnswer {
        let object: Any
        do {
            object = try JSONValue.read(data)
        } catch {
            throw OFREPAnswerError("the body is not JSON\(error.detail.map { " (\($0))" } ?? "")")
        }
        guard let root = object as? [String: Any] else { throw OFREPAnswerError("the body is not a JSON object") }
        guard let list = root["flags"] as? [Any] else {
            throw OFREPAnswerError("\"flags\" is missing or not an array")
        }
        var flags: [String: OFREPFlag] = [:]
        for (index, item) in list.enumerated() {
            guard let entry = item as? [String: Any], let key = entry["key"] as? String else {
                throw OFREPAnswerError("flags[\(index)] is not an object with a string \"key\"")
            }
            flags[key] = OFREPFlag(
                key: key, value: entry["value"].flatMap { $0 is NSNull ? nil : OverrideValue(jsonObject: $0) },
                reason: entry["reason"] as? String, variant: entry["variant"] as? String,
                errorCode: entry["errorCode"] as? String, errorDetails: entry["errorDetails"] as? String)
        }
        var streams: [URL] = []
        if let offered = root["eventStreams"] {
            guard let array = offered as? [Any] else { throw OFREPAnswerError("\"eventStreams\" is not an array") }
            for case let stream as [String: Any] in array where stream["type"] as? String == "sse" {
                if let url = streamURL(stream, baseURL: baseURL), !streams.contains(url) { streams.append(url) }
            }
        }
        return OFREPBulkAnswer(flags: flags, eventStreams: streams)
    }

    /// An event stream's URL: its `url` (relative ones against `baseURL`), else `origin` + `requestUri` of its
    /// `endpoint` (the base URL's origin when it has none); `nil` when neither is usable or it is not HTTP(S).
    static func streamURL(_ stream: [String: Any], baseURL: URL) -> URL? {
        var url: URL?
        if let text = stream["url"] as? String {
            url = URL(string: text, relativeTo: baseURL)?.absoluteURL
        } else if let endpoint = stream["endpoint"] as? [String: Any], let path = endpoint["requestUri"] as? String,
            path.hasPrefix("/")
        {
            var origin = (endpoint["origin"] as? String) ?? OFREPBulkAnswer.origin(of: baseURL)
            while origin.hasSuffix("/") { origin.removeLast() }
            url = URL(string: origin + path)
        }
        guard let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return url
    }

    static func origin(of url: URL) -> String {
        "\(url.scheme ?? "http")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")"
    }
}

/// A `refetchEvaluation` message of an event stream: what to pass back as `flagConfigEtag` and
/// `flagConfigLastModified`.
package struct OFREPRefetch: Sendable, Equatable {
    package var etag: String?
    /// Seconds since 1970 or an ISO 8601 date, as the server sent it.
    package var lastModified: String?

    package init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The refetch an event's data asks for, or `nil` when the data is not a `refetchEvaluation` message (another
    /// type, or not JSON: ignored, as the spec says for unknown types).
    package static func from(eventData data: String) -> OFREPRefetch? {
        guard let object = try? JSONValue.read(Data(data.utf8)) as? [String: Any],
            object["type"] as? String == "refetchEvaluation"
        else { return nil }
        var refetch = OFREPRefetch(etag: object["etag"] as? String)
        switch object["lastModified"] {
        case let text as String: refetch.lastModified = text
        case let number as NSNumber where String(cString: number.objCType) != "c":
            refetch.lastModified = OverrideValue(jsonObject: number).json
        default: break
        }
        return refetch
    }
}

/// Why a bulk evaluation answer could not be used.
package struct OFREPAnswerError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
