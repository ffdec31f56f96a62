import Flagstaff
import Foundation

/// Who and where a flag is evaluated for: the Unleash context.
///
/// The fields mirror the Unleash client specification's context. Strategies and constraints read the standard
/// fields by name (`userId`, `sessionId`, `remoteAddress`, `currentTime`, `environment`, `appName`); any other
/// context name a constraint or stickiness setting refers to is looked up in ``properties``.
///
/// Decoding accepts the specification's JSON shape, e.g.
/// `{"userId":"42","currentTime":"2022-01-29T13:00:00.000Z","properties":{"country":"norway"}}`;
/// a property whose value is `null` counts as absent.
public struct UnleashContext: Sendable, Hashable {
    /// The signed-in user's id; the first choice for `default` stickiness.
    public var userId: String?
    /// The session id; used for stickiness when there is no user id.
    public var sessionId: String?
    /// The client's IP address, for the `remoteAddress` strategy and `IN_CIDR` constraints.
    public var remoteAddress: String?
    /// The moment `DATE_AFTER` / `DATE_BEFORE` constraints compare against; `nil` means "now" at evaluation.
    public var currentTime: Date?
    /// The environment name (`production`, `dev`, …).
    public var environment: String?
    /// The application's name.
    public var appName: String?
    /// Custom context fields, looked up by constraints and custom stickiness.
    public var properties: [String: String]

    /// Creates a context.
    /// - Parameters:
    ///   - userId: The user id, or `nil`.
    ///   - sessionId: The session id, or `nil`.
    ///   - remoteAddress: The client IP address, or `nil`.
    ///   - currentTime: The evaluation time for date constraints, or `nil` for "now".
    ///   - environment: The environment name, or `nil`.
    ///   - appName: The application name, or `nil`.
    ///   - properties: Custom fields.
    public init(
        userId: String? = nil, sessionId: String? = nil, remoteAddress: String? = nil, currentTime: Date? = nil,
        environment: String? = nil, appName: String? = nil, properties: [String: String] = [:]
    ) {
        self.userId = userId
        self.sessionId = sessionId
        self.remoteAddress = remoteAddress
        self.currentTime = currentTime
        self.environment = environment
        self.appName = appName
        self.properties = properties
    }

    /// Decodes a context from the specification's JSON object.
    /// - Parameter data: UTF-8 JSON text of one context object.
    /// - Returns: The context.
    /// - Throws: ``UnleashContextError`` naming the offending field when the JSON or a field is invalid.
    public static func decode(json data: Data) throws -> UnleashContext {
        // The package's JSON reader, in one pass: a context follows the rules of every other JSON Flagstaff reads
        // (a repeated name or a lone surrogate is refused, not decided by whichever copy a decoder keeps).
        do throws(ReadFailure) {
            return try JSONReader.withText(data) { reader throws(ReadFailure) in try reader.readUnleashContext() }
        } catch {
            if error.isDuplicate, case .member(let name)? = error.components.last {
                var path = error
                path.path.removeFirst()
                throw UnleashContextError(
                    path: path.unleashPath, message: "the name \(JSONText.quoted(name)) appears more than once")
            }
            throw UnleashContextError(path: error.offset == nil ? error.unleashPath : "", message: error.unleashMessage)
        }
    }
}

extension JSONReader {
    private enum ContextMember: String, CaseIterable {
        case userId, sessionId, remoteAddress, currentTime, environment, appName, properties
    }

    private static let contextMembers = FieldTable(ContextMember.self)

    /// The specification's context object (see ``UnleashContext/decode(json:)``): text fields also take numbers
    /// and Booleans, `null` is absent, unknown members are skipped.
    mutating func readUnleashContext() throws(ReadFailure) -> UnleashContext {
        var context = UnleashContext()
        try readMembers(Self.contextMembers, expected: "a JSON object", unknown: .skip) {
            reader, member throws(ReadFailure) in
            if try reader.readNull() { return }
            switch member {
            case .userId: context.userId = try reader.readLenientString()
            case .sessionId: context.sessionId = try reader.readLenientString()
            case .remoteAddress: context.remoteAddress = try reader.readLenientString()
            case .environment: context.environment = try reader.readLenientString()
            case .appName: context.appName = try reader.readLenientString()
            case .currentTime:
                let text = try reader.readString()
                guard let date = RFC3339.parse(text) else {
                    throw ReadFailure(
                        message:
                            "expected an RFC 3339 date-time such as 2022-01-29T13:00:00.000Z, found \(text.debugDescription)"
                    )
                }
                context.currentTime = date
            case .properties:
                guard reader.byte == UInt8(ascii: "{") else { throw try reader.typeMismatch(expected: "an object") }
                try reader.open()
                var properties = ObjectState()
                var names: Set<String> = []
                while let token = try reader.nextFieldName(&properties) {
                    let property = token.string
                    guard names.insert(property).inserted else { throw Self.duplicateMember(property) }
                    do throws(ReadFailure) {
                        if try reader.readNull() { continue }
                        context.properties[property] = try reader.readLenientString()
                    } catch {
                        throw error.inside(.field(property))
                    }
                }
            }
        }
        return context
    }
}

/// A context could not be decoded.
public struct UnleashContextError: Error, Sendable, CustomStringConvertible {
    /// The JSON path of the offending value (`properties.country`), or empty for the whole document.
    public let path: String
    /// What was wrong and what was expected.
    public let message: String

    /// A one-line description naming the path.
    public var description: String {
        path.isEmpty ? "invalid context: \(message)" : "invalid context at \(path): \(message)"
    }
}
