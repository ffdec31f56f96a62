import Flagstaff
import Foundation

/// A bulk evaluation answer (`200` of `POST /ofrep/v1/evaluate/flags`), read strictly enough to trust and
/// leniently enough to follow a newer server: unknown members and event streams of unknown types are ignored.
package struct OFREPBulkAnswer: Sendable, Equatable {
    /// The evaluations by key.
    package var flags: [String: OFREPFlag]
    /// The URLs of the `sse` event streams offered, in order, without repeats.
    package var eventStreams: [URL]
    /// The `inactivityDelaySec` of the first `sse` stream offered, the one the provider follows (whole seconds, at
    /// least 1), or `nil` when it does not say (ADR-0008: the provider then assumes 120 s).
    package var inactivityDelay: Duration?

    /// Reads a body in one pass with the package's ``JSONReader``, straight into the flags (no tree of the
    /// body is built). The text must be strict JSON without a repeated member name anywhere; a value of the wrong
    /// type where a string is expected (`reason`, `variant`, …) counts as absent.
    /// - Parameters:
    ///   - data: The body.
    ///   - baseURL: The configured base URL: the origin of an `endpoint` without one, and what a relative `url`
    ///     is resolved against.
    ///   - expectedFlags: how many flags the answer probably has (the last answer's count): room is made for them
    ///     at once.
    /// - Throws: a message naming the member that is wrong and what was expected.
    package static func read(_ data: Data, baseURL: URL, expectedFlags: Int = 0) throws(OFREPAnswerError)
        -> OFREPBulkAnswer
    {
        var body = BodyReader()
        body.flags.reserveCapacity(max(0, expectedFlags))
        do throws(ReadFailure) {
            try JSONReader.withText(data) { reader throws(ReadFailure) in try body.read(&reader) }
        } catch {
            let syntax = JSONValue.SyntaxError(error)
            var detail = syntax.detail
            if case .member(let name)? = syntax.duplicate?.last {
                detail = "the name \(JSONText.quoted(name)) appears more than once"
            }
            throw OFREPAnswerError("the body is not JSON\(detail.map { " (\($0))" } ?? "")")
        }
        // What is wrong with the shape is said once the whole text is known to be JSON, in the order of the checks:
        // the body, its flags, then its event streams.
        if let problem = body.problem ?? body.flagsProblem ?? body.streamsProblem { throw OFREPAnswerError(problem) }
        var streams: [URL] = []
        var seen = Set<URL>()
        var inactivityDelay: Duration?
        for stream in body.streams where stream["type"]?.stringValue == "sse" {
            guard let url = streamURL(stream, baseURL: baseURL) else { continue }
            if streams.isEmpty, let delay = inactivitySeconds(stream["inactivityDelaySec"]) {
                inactivityDelay = .seconds(delay)
            }
            if seen.insert(url).inserted { streams.append(url) }
        }
        return OFREPBulkAnswer(flags: body.flags, eventStreams: streams, inactivityDelay: inactivityDelay)
    }

    /// An event stream's URL: its `url` (relative ones against `baseURL`), else `origin` + `requestUri` of its
    /// `endpoint` (the base URL's origin when it has none); `nil` when neither is usable or it is not HTTP(S).
    static func streamURL(_ stream: JSONValue, baseURL: URL) -> URL? {
        var url: URL?
        if let text = stream["url"]?.stringValue {
            url = URL(string: text, relativeTo: baseURL)?.absoluteURL
        } else if let endpoint = stream["endpoint"], let path = endpoint["requestUri"]?.stringValue,
            path.hasPrefix("/")
        {
            var origin = endpoint["origin"]?.stringValue ?? OFREPBulkAnswer.origin(of: baseURL)
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

/// The one pass over a bulk answer: the flags straight from the text, the (few) event streams as trees.
private struct BodyReader {
    var flags: [String: OFREPFlag] = [:]
    var streams: [JSONValue] = []
    /// The first thing wrong with the body's, the flags' and the event streams' shape.
    var problem: String?
    var flagsProblem: String? = #""flags" is missing or not an array"#
    var streamsProblem: String?
    /// Member names other than the known ones of the object being read, to refuse a repeated one (kept between
    /// objects so that a thousand flags cost no allocation for them).
    var otherNames: [String] = []

    /// The members of the body this reader keeps.
    private enum BodyMember: String, CaseIterable, Sendable {
        case flags, eventStreams
    }

    /// The members of a flag this reader keeps.
    private enum FlagMember: String, CaseIterable, Sendable {
        case key, value, reason, variant, errorCode, errorDetails, metadata
    }

    private static let bodyMembers = FieldTable(BodyMember.self)
    private static let flagMembers = FieldTable(FlagMember.self)

    mutating func read(_ reader: inout JSONReader) throws(ReadFailure) {
        guard reader.byte == UInt8(ascii: "{") else {
            try reader.skipValue()
            problem = "the body is not a JSON object"
            return
        }
        try reader.open()
        var state = JSONReader.ObjectState()
        var names: [String] = []
        while let (member, name) = try reader.nextFieldAllowingUnknown(Self.bodyMembers, &state) {
            if member == nil {
                let text = name.string
                guard !names.contains(text) else { throw JSONReader.duplicateMember(text) }
                names.append(text)
            }
            do throws(ReadFailure) {
                switch member {
                case .flags: try readFlags(&reader)
                case .eventStreams: try readStreams(&reader)
                case nil: try reader.skipValue()
                }
            } catch {
                throw error.inside(.field(name.string))
            }
        }
    }

    private mutating func readStreams(_ reader: inout JSONReader) throws(ReadFailure) {
        guard reader.byte == UInt8(ascii: "[") else {
            try reader.skipValue()
            streamsProblem = #""eventStreams" is not an array"#
            return
        }
        guard case .array(let list) = try reader.readJSONValue() else { return }
        streams = list
    }

    private mutating func readFlags(_ reader: inout JSONReader) throws(ReadFailure) {
        guard reader.byte == UInt8(ascii: "[") else { return try reader.skipValue() }
        flagsProblem = nil
        try reader.open()
        var first = true
        var index = 0
        while try reader.nextElement(&first) {
            do throws(ReadFailure) {
                try readFlag(&reader, index: index)
            } catch {
                throw error.offset == nil ? error.inside(.index(index)) : error
            }
            index += 1
        }
    }

    /// One element of `flags`: an object with a string `key`, else the element is recorded as the problem.
    private mutating func readFlag(_ reader: inout JSONReader, index: Int) throws(ReadFailure) {
        guard reader.byte == UInt8(ascii: "{") else {
            try reader.skipValue()
            refuseFlag(index)
            return
        }
        try reader.open()
        var state = JSONReader.ObjectState()
        otherNames.removeAll(keepingCapacity: true)
        var key: String?
        var flag = OFREPFlag(key: "", value: nil)
        while let (member, name) = try reader.nextFieldAllowingUnknown(Self.flagMembers, &state) {
            if member == nil {
                let text = name.string
                guard !otherNames.contains(text) else { throw JSONReader.duplicateMember(text) }
                otherNames.append(text)
            }
            do throws(ReadFailure) {
                switch member {
                case .key: key = try Self.optionalString(&reader)
                case .value: flag.value = try reader.readNull() ? nil : try reader.readOverrideValue()
                case .reason: flag.reason = try Self.optionalString(&reader)
                case .variant: flag.variant = try Self.optionalString(&reader)
                case .errorCode: flag.errorCode = try Self.optionalString(&reader)
                case .errorDetails: flag.errorDetails = try Self.optionalString(&reader)
                case .metadata: flag.source = try skipShallow(&reader, keeping: "source")
                case nil: try skipShallow(&reader)
                }
            } catch {
                throw error.inside(.field(name.string))
            }
        }
        guard let key else { return refuseFlag(index) }
        flag.key = key
        flags[key] = flag
    }

    private mutating func refuseFlag(_ index: Int) {
        if flagsProblem == nil { flagsProblem = "flags[\(index)] is not an object with a string \"key\"" }
    }

    /// Skips a value; an object of scalars (a flag's `metadata`) is checked for repeated names without a set.
    /// - Parameter kept: the name of a member of that object whose string value to return (`source`), if any.
    /// - Returns: that member's string, or `nil`.
    @discardableResult
    private mutating func skipShallow(_ reader: inout JSONReader, keeping kept: String? = nil) throws(ReadFailure)
        -> String?
    {
        guard reader.byte == UInt8(ascii: "{") else {
            try reader.skipValue()
            return nil
        }
        let outer = otherNames.count
        defer { otherNames.removeSubrange(outer...) }
        try reader.open()
        var state = JSONReader.ObjectState()
        var found: String?
        while let name = try reader.nextFieldName(&state) {
            let text = name.string
            guard !otherNames[outer...].contains(text) else { throw JSONReader.duplicateMember(text) }
            otherNames.append(text)
            do throws(ReadFailure) {
                if text == kept {
                    found = try Self.optionalString(&reader)
                } else {
                    try reader.skipValue()
                }
            } catch {
                throw error.inside(.field(text))
            }
        }
        return found
    }

    /// A string, or `nil` for any other value (skipped).
    private static func optionalString(_ reader: inout JSONReader) throws(ReadFailure) -> String? {
        guard reader.byte == UInt8(ascii: "\"") else {
            try reader.skipValue()
            return nil
        }
        return try reader.readStringToken().string
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
        guard let object = try? JSONValue.read(Data(data.utf8)), object["type"]?.stringValue == "refetchEvaluation"
        else { return nil }
        var refetch = OFREPRefetch(etag: object["etag"]?.stringValue)
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
