import Flagstaff
import Foundation

/// What the provider persists about its Firebase installation (`firebase-installation.json`), written atomically.
struct FirebaseInstallationRecord: Encodable, Equatable, Sendable {
    /// The file format version.
    var version = 1
    /// The Google app ID the installation was registered for; another app ID starts a new installation.
    var appID: String
    /// The installation ID (FID), created on this device before registration.
    var fid: String
    /// The refresh token from registration; `nil` until registered.
    var refreshToken: String?
    /// The current auth token, and when it expires.
    var authToken: String?
    var authTokenExpiration: Date?
    /// When the app was first opened (the first time a record was written).
    var firstOpenTime: Date?

    /// The file name inside the storage directory.
    static let fileName = "firebase-installation.json"

    /// Reads the record in `directory`; `nil` when there is none or it cannot be read (a new one replaces it).
    static func load(from directory: URL) -> FirebaseInstallationRecord? {
        let url = directory.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONReader.withText(data) { reader throws(ReadFailure) in try reader.readInstallationRecord() }
    }

    /// Writes the record into `directory`, creating it if needed.
    ///
    /// - Throws: The file system's error.
    func save(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
    }

    /// A new installation ID in the SDK's format: 22 URL-safe base64 characters of 16 random bytes behind the
    /// 4-bit prefix `0111`, so it always starts with `c`, `d`, `e` or `f`.
    static func makeFID() -> String {
        var bytes = [UInt8](repeating: 0, count: 17)
        var generator = SystemRandomNumberGenerator()
        for index in 1..<17 { bytes[index] = generator.next() }
        bytes[0] = 0b0111_0000 | (bytes[16] & 0b0000_1111)
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "+", with: "-")
        return String(text.prefix(22))
    }
}

extension JSONReader {
    private enum InstallationMember: String, CaseIterable {
        case version, appID, fid, refreshToken, authToken, authTokenExpiration, firstOpenTime
    }

    private static let installationMembers = FieldTable(InstallationMember.self)

    /// The record as ``FirebaseInstallationRecord/save(to:)`` writes it (times in seconds since 1970); `version`,
    /// `appID` and `fid` are required, the rest may be missing or `null`, unknown members are skipped.
    mutating func readInstallationRecord() throws(ReadFailure) -> FirebaseInstallationRecord {
        var version: Int?
        var appID: String?
        var fid: String?
        var record = FirebaseInstallationRecord(appID: "", fid: "")
        try readMembers(Self.installationMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .version:
                guard let number = Int(exactly: try reader.readNumber()) else {
                    throw ReadFailure(message: "expected a whole number")
                }
                version = number
            case .appID: appID = try reader.readString()
            case .fid: fid = try reader.readString()
            case .refreshToken: record.refreshToken = try reader.readOptionalString()
            case .authToken: record.authToken = try reader.readOptionalString()
            case .authTokenExpiration: record.authTokenExpiration = try reader.readOptionalSeconds()
            case .firstOpenTime: record.firstOpenTime = try reader.readOptionalSeconds()
            }
        }
        guard let version, let appID, let fid else { throw ReadFailure(message: "version, appID and fid are required") }
        record.version = version
        record.appID = appID
        record.fid = fid
        return record
    }

    /// A time as seconds since 1970, or `nil` for `null`.
    private mutating func readOptionalSeconds() throws(ReadFailure) -> Date? {
        if try readNull() { return nil }
        guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            throw try typeMismatch(expected: "a number of seconds since 1970")
        }
        return Date(timeIntervalSince1970: try readNumber())
    }
}
