import Flagstaff
import Foundation

/// The files of ``RemoteConfigStorage`` read with the package's ``JSONReader``, straight into their models
/// (times in seconds since 1970, as the storage writes them). Unknown members are skipped; `null` is a missing
/// optional member.
extension JSONReader {
    private enum StoredConfigMember: String, CaseIterable { case version, templateVersion, entries }
    private enum MetadataMember: String, CaseIterable {
        case version, eTag, lastFetchTime, lastAttemptTime, lastFetchStatus, lastError, throttleEndTime
        case backoffInterval, fetchedTemplateVersion, activeTemplateVersion, lastActivationTime, customSignals
        case deviceContext
    }

    private static let storedConfigMembers = FieldTable(StoredConfigMember.self)
    private static let metadataMembers = FieldTable(MetadataMember.self)

    /// `fetched.json` or `active.json`: `version` and `entries` are required.
    mutating func readStoredConfig() throws(ReadFailure) -> RemoteConfigStorage.StoredConfig {
        guard byte == UInt8(ascii: "{") else { throw try typeMismatch(expected: "an object") }
        try open()
        var state = ObjectState()
        var others: [String] = []
        var version: Int?
        var templateVersion: String?
        var entries: [String: String]?
        while let (member, name) = try nextFieldAllowingUnknown(Self.storedConfigMembers, &state) {
            guard let member else {
                try skipUnknownField(name, others: &others)
                continue
            }
            do throws(ReadFailure) {
                switch member {
                case .version: version = try readWholeNumber()
                case .templateVersion: templateVersion = try readOptionalString()
                case .entries: entries = try readStringMap()
                }
            } catch {
                throw error.inside(.field(member.rawValue))
            }
        }
        guard let version else { throw Self.missing("version") }
        guard let entries else { throw Self.missing("entries") }
        return RemoteConfigStorage.StoredConfig(version: version, templateVersion: templateVersion, entries: entries)
    }

    /// `metadata.json`: every member may be missing.
    mutating func readRemoteConfigMetadata() throws(ReadFailure) -> RemoteConfigMetadata {
        guard byte == UInt8(ascii: "{") else { throw try typeMismatch(expected: "an object") }
        try open()
        var state = ObjectState()
        var others: [String] = []
        var metadata = RemoteConfigMetadata()
        while let (member, name) = try nextFieldAllowingUnknown(Self.metadataMembers, &state) {
            guard let member else {
                try skipUnknownField(name, others: &others)
                continue
            }
            do throws(ReadFailure) {
                if try readNull() { continue }
                switch member {
                case .version: metadata.version = try readWholeNumber()
                case .eTag: metadata.eTag = try readString()
                case .lastFetchTime: metadata.lastFetchTime = try readSeconds()
                case .lastAttemptTime: metadata.lastAttemptTime = try readSeconds()
                case .lastFetchStatus:
                    let text = try readString()
                    guard let status = RemoteConfigFetchStatus(rawValue: text) else {
                        let known = RemoteConfigFetchStatus.allCases.map(\.rawValue).joined(separator: ", ")
                        throw ReadFailure(
                            message: "unknown status \(JSONText.quoted(text)) (expected one of: \(known))")
                    }
                    metadata.lastFetchStatus = status
                case .lastError: metadata.lastError = try readString()
                case .throttleEndTime: metadata.throttleEndTime = try readSeconds()
                case .backoffInterval: metadata.backoffInterval = try readSecondsNumber()
                case .fetchedTemplateVersion: metadata.fetchedTemplateVersion = try readString()
                case .activeTemplateVersion: metadata.activeTemplateVersion = try readString()
                case .lastActivationTime: metadata.lastActivationTime = try readSeconds()
                case .customSignals: metadata.customSignals = try readStringMap()
                case .deviceContext: metadata.deviceContext = try readStringMap()
                }
            } catch {
                throw error.inside(.field(member.rawValue))
            }
        }
        return metadata
    }

    /// An object of strings (a repeated name is an error).
    private mutating func readStringMap() throws(ReadFailure) -> [String: String] {
        guard byte == UInt8(ascii: "{") else { throw try typeMismatch(expected: "an object of strings") }
        try open()
        var state = ObjectState()
        var map: [String: String] = [:]
        while let token = try nextFieldName(&state) {
            let name = token.string
            guard map[name] == nil else { throw Self.duplicateMember(name) }
            do throws(ReadFailure) { map[name] = try readString() } catch { throw error.inside(.field(name)) }
        }
        return map
    }

    /// A whole number that fits in `Int`.
    private mutating func readWholeNumber() throws(ReadFailure) -> Int {
        let number = try readSecondsNumber()
        guard let whole = Int(exactly: number) else {
            throw ReadFailure(message: "expected a whole number, found \(number)")
        }
        return whole
    }

    /// A number (seconds).
    private mutating func readSecondsNumber() throws(ReadFailure) -> Double {
        guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            throw try typeMismatch(expected: "a number")
        }
        return try readNumber()
    }

    /// A time as seconds since 1970.
    private mutating func readSeconds() throws(ReadFailure) -> Date {
        Date(timeIntervalSince1970: try readSecondsNumber())
    }

    private static func missing(_ name: String) -> ReadFailure {
        ReadFailure(message: "required member \(JSONText.quoted(name)) is missing", path: [.field(name)])
    }
}
