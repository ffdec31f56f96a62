import Flagstaff
import FlagstaffServerBodies
import Foundation

/// The OpenFeature Remote Evaluation Protocol (OFREP, `/ofrep/v1/…`): request parsing and response bodies.
///
/// Every member evaluates to its effective value with the reason `STATIC` (values do not depend on the
/// context), the variant named after the value's source (`on`/`off` for on/off members) and metadata giving the
/// source, the type and the description.
package enum OFREPBodies {
    /// An OFREP error: its code, HTTP status and details.
    package struct Failure: Error, Sendable, Equatable {
        /// `FLAG_NOT_FOUND`, `TYPE_MISMATCH`, `PARSE_ERROR` or `INVALID_CONTEXT`.
        package var code: String
        /// 404 for `FLAG_NOT_FOUND`, else 400.
        package var status: Int
        /// What went wrong, for a person.
        package var details: String

        static func parse(_ details: String) -> Failure { Failure(code: "PARSE_ERROR", status: 400, details: details) }
        static func invalidContext(_ details: String) -> Failure {
            Failure(code: "INVALID_CONTEXT", status: 400, details: details)
        }
    }

    /// The OFREP types a client may ask for with the `type` query parameter (a Flagstaff extension: OFREP
    /// requests carry no type, so only a client that names one can get `TYPE_MISMATCH`).
    package static let typeNames = ["boolean", "string", "integer", "float", "object"]

    /// Checks an evaluation request body: empty, or a JSON object whose optional `context` is an object.
    /// - Returns: the context (empty when none was given).
    /// - Throws: ``Failure`` `PARSE_ERROR` for text that is not JSON, `INVALID_CONTEXT` for JSON of the wrong
    ///   shape.
    package static func context(fromBody body: [UInt8]) throws(Failure) -> [String: JSONValue] {
        do throws(RequestBody.Problem) {
            return try RequestBody.ofrepContext(body)
        } catch {
            switch error {
            case .notJSON(let message): throw .parse(message)
            case .wrongShape(let message): throw .invalidContext(message)
            }
        }
    }

    /// The OFREP type of a member: `boolean`, `string` (strings, choices), `integer`, `float` or `object`.
    package static func typeName(_ flag: ServedFlag) -> String {
        switch flag.type {
        case .boolean: return "boolean"
        case .string, .choice: return "string"
        case .integer: return "integer"
        case .double: return "float"
        case .json: return "object"
        }
    }

    /// `an integer`, `a boolean`.
    private static func withArticle(_ typeName: String) -> String {
        (typeName.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + typeName
    }

    /// Whether a member may be read as `requested` (an integer may be read as a float).
    static func isCompatible(_ flag: ServedFlag, with requested: String) -> Bool {
        let actual = typeName(flag)
        return actual == requested || (actual == "integer" && requested == "float")
    }

    /// `POST /ofrep/v1/evaluate/flags/{key}`.
    /// - Parameters:
    ///   - key: the flag key from the path.
    ///   - body: the request body.
    ///   - requestedType: the `type` query parameter, if any.
    package static func evaluate(
        _ snapshot: ServedSnapshot, key: String, body: [UInt8], requestedType: String?
    ) -> ServerReply {
        do throws(Failure) {
            _ = try context(fromBody: body)
            if let requestedType, !typeNames.contains(requestedType) {
                throw Failure.invalidContext(
                    "unknown type \(JSONText.quoted(requestedType)): expected one of \(typeNames.joined(separator: ", "))"
                )
            }
            guard let flag = snapshot.flag(forKey: key) else {
                throw Failure(
                    code: "FLAG_NOT_FOUND", status: 404,
                    details: "no flag or setting has the key \(JSONText.quoted(key))")
            }
            if let requestedType, !isCompatible(flag, with: requestedType) {
                throw Failure(
                    code: "TYPE_MISMATCH", status: 400,
                    details:
                        "\(JSONText.quoted(key)) is \(withArticle(typeName(flag))) value, not \(withArticle(requestedType))"
                )
            }
            var json = JSONBodyWriter()
            success(flag, &json)
            return ServerReply(status: 200, body: json.bytes)
        } catch {
            return failure(error, key: key)
        }
    }

    /// Where an OFREP provider finds the event stream (ADR-0008): `url` from the address the client used (its
    /// `Host`), else `endpoint.requestUri` (the provider adds its own origin).
    package struct EventStream: Sendable, Equatable {
        /// The `Host` header, when it is a plain host and port.
        package var host: String?
        /// The path of the stream.
        package var path = "/ofrep/v1/events"
        /// `inactivityDelaySec`: after this long in the background a provider closes the stream.
        package var inactivityDelaySec = 120

        /// Creates the entry; a `Host` with anything but letters, digits, `.-:[]` is not used.
        package init(host: String?) {
            self.host = host.flatMap { host in
                host.count <= 255 && !host.isEmpty
                    && host.unicodeScalars.allSatisfy {
                        $0.isASCII
                            && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                || ".-:[]".unicodeScalars.contains($0))
                    }
                    ? host : nil
            }
        }

        /// `,"eventStreams":[{…}]`.
        var member: String {
            let location =
                host.map { "\"url\":\(JSONText.quoted("http://\($0)\(path)"))" }
                ?? "\"endpoint\":{\"requestUri\":\(JSONText.quoted(path))}"
            return ",\"eventStreams\":[{\"type\":\"sse\",\(location),\"inactivityDelaySec\":\(inactivityDelaySec)}]"
        }
    }

    /// `POST /ofrep/v1/evaluate/flags`: every member, with the snapshot's ETag (304 when `If-None-Match` names
    /// it), and where the event stream is when the server offers one.
    package static func evaluateAll(
        _ snapshot: ServedSnapshot, body: [UInt8], ifNoneMatch: String?, acceptsGzip: Bool = false,
        eventStream: EventStream? = nil
    ) -> ServerReply {
        do throws(Failure) {
            _ = try context(fromBody: body)
        } catch {
            return failure(error, key: nil)
        }
        // Keyed by the host alone: the entry is only made when a body is rendered.
        return snapshot.reply(
            .ofrepBulk, variant: eventStream.map { $0.host ?? "\u{0}" } ?? "", ifNoneMatch: ifNoneMatch,
            acceptsGzip: acceptsGzip
        ) { bulkChunks($0, eventStream: eventStream) }
    }

    /// The bulk body: `{"flags":[…]}`, with `eventStreams` when given.
    package static func bulk(_ snapshot: ServedSnapshot, eventStream: EventStream? = nil) -> [UInt8] {
        bulkChunks(snapshot, eventStream: eventStream).bytes
    }

    /// The bulk body in pieces (see ``bulk(_:eventStream:)``).
    package static func bulkChunks(_ snapshot: ServedSnapshot, eventStream: EventStream? = nil) -> BodyChunks {
        BodyChunks(snapshot: snapshot, head: "{\"flags\":[", tail: "]" + (eventStream?.member ?? "") + "}") {
            flag, first, json in
            if !first { json.raw(",") }
            success(flag, &json)
            return true
        }
    }

    /// The variant name: `on`/`off` for on/off members, else the value's source.
    package static func variant(_ flag: ServedFlag) -> String {
        flag.isBoolean ? (flag.booleanValue ? "on" : "off") : UnleashBodies.variantName(flag)
    }

    private static func success(_ flag: ServedFlag, _ json: inout JSONBodyWriter) {
        json.raw("{")
        json.member("key", first: true)
        json.string(flag.key)
        json.member("value")
        json.raw(flag.jsonValue)
        json.raw(",\"reason\":\"STATIC\"")
        json.member("variant")
        json.string(variant(flag))
        json.raw(",\"metadata\":{")
        json.member("source", first: true)
        json.string(flag.source)
        json.member("type")
        json.string(flag.type.name)
        // No description: it is not part of an evaluation, and clients poll the bulk body (at 1,000 members the
        // descriptions were a third of it).
        json.raw("}}")
    }

    private static func failure(_ error: Failure, key: String?) -> ServerReply {
        var json = JSONBodyWriter()
        json.raw("{")
        if let key {
            json.member("key", first: true)
            json.string(key)
            json.member("errorCode")
        } else {
            json.member("errorCode", first: true)
        }
        json.string(error.code)
        json.member("errorDetails")
        json.string(error.details)
        json.raw("}")
        return ServerReply(status: error.status, body: json.bytes)
    }
}
