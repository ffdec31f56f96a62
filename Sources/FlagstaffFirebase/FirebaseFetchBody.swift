import Flagstaff
import FlagstaffRemote
import Foundation

/// A Firebase `:fetch` body read in one pass with the package's ``JSONReader``, straight into what
/// ``FirebaseFetchResponseParser`` needs. Members it does not use (`personalizationMetadata`,
/// `rolloutMetadata`, …) are skipped; shape problems are kept and reported once the whole text is known to be
/// JSON, so a syntax error anywhere is reported as such.
struct FirebaseFetchBody {
    /// The `error` object's members, when the body has one.
    struct ServerError {
        var code: Int?
        var status: String?
        var message: String?
    }

    var error: ServerError?
    /// `state` when it is a string.
    var state: String?
    /// Whether the body has a `state` member (`null` included).
    var hasState = false
    /// `templateVersion` as text (a number as its decimal text).
    var templateVersion: String?
    /// `entries`, each value as text.
    var entries: [String: String] = [:]
    /// What is wrong with `entries`, found while reading.
    var problem: String?

    private enum Member: String, CaseIterable { case error, state, templateVersion, entries }
    private enum ErrorMember: String, CaseIterable { case code, status, message }
    private static let members = FieldTable(Member.self)
    private static let errorMembers = FieldTable(ErrorMember.self)

    /// Reads a body: `nil` when its top-level value is not an object (`found` then says what it is).
    static func read(_ data: Data) throws(ReadFailure) -> (body: FirebaseFetchBody?, found: String) {
        try JSONReader.withText(data) { reader throws(ReadFailure) in
            switch reader.byte {
            case UInt8(ascii: "{"):
                var body = FirebaseFetchBody()
                try body.read(&reader)
                return (body, "an object")
            case UInt8(ascii: "["):
                try reader.skipValue()
                return (nil, "an array")
            default:
                try reader.skipValue()
                return (nil, "a scalar")
            }
        }
    }

    private mutating func read(_ reader: inout JSONReader) throws(ReadFailure) {
        try reader.readMembers(Self.members, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .error: error = try Self.readError(&reader)
            case .state:
                hasState = true
                self.state = try Self.optionalText(&reader)
            case .templateVersion: templateVersion = try Self.scalarText(&reader)
            case .entries: try readEntries(&reader)
            }
        }
    }

    /// `entries`: an object of strings (numbers and Booleans as their text); `null` is none.
    private mutating func readEntries(_ reader: inout JSONReader) throws(ReadFailure) {
        if try reader.readNull() { return }
        guard reader.byte == UInt8(ascii: "{") else {
            try reader.skipValue()
            problem = problem ?? "field entries: expected an object of strings"
            return
        }
        try reader.open()
        var state = JSONReader.ObjectState()
        while let token = try reader.nextFieldName(&state) {
            let key = token.string
            guard entries[key] == nil else { throw JSONReader.duplicateMember(key) }
            do throws(ReadFailure) {
                if let text = try Self.scalarText(&reader) {
                    entries[key] = text
                } else {
                    problem = problem ?? "field entries.\(key): expected a string"
                    entries[key] = ""
                }
            } catch {
                throw error.inside(.field(key))
            }
        }
    }

    /// A string as it is, a number or Boolean as the text Firebase stores (`true` → `"1"`); `nil` (the value
    /// skipped) for anything else.
    static func scalarText(_ reader: inout JSONReader) throws(ReadFailure) -> String? {
        switch reader.byte {
        case UInt8(ascii: "\""):
            return try reader.readString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return RemoteConfigValue.storedNumberText(try reader.readFoundationValue())
        default:
            try reader.skipValue()
            return nil
        }
    }

    /// The `error` object (`code` as a whole number, `status` and `message` as strings; other types are none);
    /// `nil` when `error` is not an object.
    static func readError(_ reader: inout JSONReader) throws(ReadFailure) -> ServerError? {
        guard reader.byte == UInt8(ascii: "{") else {
            try reader.skipValue()
            return nil
        }
        var error = ServerError()
        try reader.readMembers(Self.errorMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .code:
                let value = try reader.readFoundationValue()
                error.code = (value as? NSNumber)?.intValue
            case .status: error.status = try optionalText(&reader)
            case .message: error.message = try optionalText(&reader)
            }
        }
        return error
    }

    /// A string, or `nil` (the value skipped) for anything else.
    static func optionalText(_ reader: inout JSONReader) throws(ReadFailure) -> String? {
        guard reader.byte == UInt8(ascii: "\"") else {
            try reader.skipValue()
            return nil
        }
        return try reader.readString()
    }
}
