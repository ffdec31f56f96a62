import Flagstaff
import Foundation

/// A bulk evaluation answer (`200` of `POST /ofrep/v1/evaluate/flags`), read strictly enough to trust and
/// leniently enough to follow a newer server: unknown members and event streams of unknown types are ignored.
package struct OFREPBulkAnswer: Sendable, Equatable {
    /// The evaluations by key.
    package var flags: [String: OFREPFlag]
    /// The URLs of the `sse` event streams offered, in order, without repeats.
    package var eventStreams: [URL]
    /// The shortest `inactivityDelaySec` of the `sse` streams offered (whole seconds, at least 1), or `nil` when
    /// none says (ADR-0008: the provider then assumes 120 s).
    package var inactivityDelay: Duration?

    /// Reads a body.
    /// - Parameters:
    ///   - data: The body.
    ///   - baseURL: The configured base URL: the origin of an `endpoint` without one, and what a relative `url`
    ///     is resolved against.
    /// - Throws: a message naming the member that is wrong and what was expected.
    package static func read(_ data: Data, baseURL: URL) throws(OFREPAnswerError) -> OFREPBulkAnswer {
        let root: JSONValue
        do {
            root = try JSONValue.read(data)
        } catch {
            throw OFREPAnswerError("the body is not JSON\(error.detail.map { " (\($0))" } ?? "")")
        }
        guard case .object = root else { throw OFREPAnswerError("the body is not a JSON object") }
        guard case .array(let list) = root["flags"] else {
            throw OFREPAnswerError("\"flags\" is missing or not an array")
        }
        var flags: [String: OFREPFlag] = [:]
        for (index, entry) in list.enumerated() {
            guard case .object = entry, let key = entry["key"]?.string else {
                throw OFREPAnswerError("flags[\(index)] is not an object with a string \"key\"")
            }
            let value = entry["value"].flatMap { $0 == .null ? nil : $0.overrideValue }
            flags[key] = OFREPFlag(
                key: key, value: value, reason: entry["reason"]?.string, variant: entry["variant"]?.string,
                errorCode: entry["errorCode"]?.string, errorDetails: entry["errorDetails"]?.string)
        }
        var streams: [URL] = []
        var inactivityDelay: Duration?
        if let offered = root["eventStreams"] {
            guard case .array(let array) = offered else {
                throw OFREPAnswerError("\"eventStreams\" is not an array")
            }
            for stream in array where stream["type"]?.string == "sse" {
                guard let url = streamURL(stream, baseURL: baseURL) else { continue }
                if !streams.contains(url) { streams.append(url) }
                if let delay = inactivitySeconds(stream["inactivityDelaySec"]) {
                    inactivityDelay = min(inactivityDelay ?? .seconds(delay), .seconds(delay))
                }
            }
        }
        return OFREPBulkAnswer(flags: flags, eventStreams: streams, inactivityDelay: inactivityDelay)
    }

    /// An event stream's URL: its `url` (relative ones against `baseURL`), else `origin` + `requestUri` of its
    /// `endpoint` (the base URL's origin when it has none); `nil` when neither is usable or it is not HTTP(S).
    static func streamURL(_ stream: JSONValue, baseURL: URL) -> URL? {
        var url: URL?
        if let text = stream["url"]?.string {
            url = URL(string: text, relativeTo: baseURL)?.absoluteURL
        } else if let endpoint = stream["endpoint"], let path = endpoint["requestUri"]?.string, path.hasPrefix("/") {
            var origin = endpoint["origin"]?.string ?? OFREPBulkAnswer.origin(of: baseURL)
            while origin.hasSuffix("/") { origin.removeLast() }
            url = URL(string: origin + path)
        }
        guard let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return url
    }

    /// An `inactivityDelaySec`: a whole number of seconds, at least 1 (the spec's minimum), at most a day; `nil`
    /// when absent or not such a number (ignored: the provider's default applies).
    static func inactivitySeconds(_ value: JSONValue?) -> Int64? {
        guard case .number(let number) = value, number >= 1, number.rounded() == number else { return nil }
        return Int64(min(number, 86_400))
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
        guard let object = try? JSONValue.read(Data(data.utf8)), object["type"]?.string == "refetchEvaluation"
        else { return nil }
        var refetch = OFREPRefetch(etag: object["etag"]?.string)
        switch object["lastModified"] {
        case .string(let text): refetch.lastModified = text
        case .number(let number): refetch.lastModified = JSONValue.number(number).overrideValue.json
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

extension JSONValue {
    /// The string this value is, else `nil`.
    fileprivate var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
