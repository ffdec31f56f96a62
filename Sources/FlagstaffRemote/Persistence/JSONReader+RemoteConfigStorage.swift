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
        var version: Int?
        var templateVersion: String?
        var entries: [String: String]?
        try readMembers(Self.storedConfigMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .version: version = try reader.readWholeNumber()
            case .templateVersion: templateVersion = try reader.readOptionalString()
            case .entries: entries = try reader.readStringMap()
            }
        }
        guard let version else { throw Self.missing("version") }
        guard let entries else { throw Self.missing("entries") }
        return RemoteConfigStorage.StoredConfig(version: version, templateVersion: templateVersion, entries: entries)
    }

    /// `metadata.json`: every member may be missing.
    mutating func readRemoteConfigMetadata() throws(ReadFailure) -> RemoteConfigMetadata {
        var metadata = RemoteConfigMetadata()
        try readMembers(Self.metadataMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            if try reader.readNull() { return }
            switch member {
            case .version: metadata.version = try reader.readWholeNumber()
            case .eTag: metadata.eTag = try reader.readString()
            case .lastFetchTime: metadata.lastFetchTime = try reader.readSeconds()
            case .lastAttemptTime: metadata.lastAttemptTime = try reader.readSeconds()
            case .lastFetchStatus:
                let text = try reader.readString()
                guard let status = RemoteConfigFetchStatus(rawValue: text) else {
                    let known = RemoteConfigFetchStatus.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ReadFailure(
                        message: "unknown status \(JSONText.quoted(text)) (expected one of: \(known))")
                }
                metadata.lastFetchStatus = status
            case .lastError: metadata.lastError = try reader.readString()
            case .throttleEndTime: metadata.throttleEndTime = try reader.readSeconds()
            case .backoffInterval: metadata.backoffInterval = try reader.readSecondsNumber()
            case .fetchedTemplateVersion: metadata.fetchedTemplateVersion = try reader.readString()
            case .activeTemplateVersion: metadata.activeTemplateVersion = try reader.readString()
            case .lastActivationTime: metadata.lastActivationTime = try reader.readSeconds()
            case .customSignals: metadata.customSignals = try reader.readStringMap()
            case .deviceContext: metadata.deviceContext = try reader.readStringMap()
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
