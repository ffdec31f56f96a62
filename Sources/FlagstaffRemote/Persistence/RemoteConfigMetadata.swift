import Foundation

/// Fetch bookkeeping that survives restarts (`metadata.json` in the storage directory).
public struct RemoteConfigMetadata: Sendable, Equatable, Codable {
    /// The file format version.
    public var version: Int = 1
    /// The ETag of the last successful fetch.
    public var eTag: String?
    /// When the last successful fetch completed.
    public var lastFetchTime: Date?
    /// When the last fetch attempt (any outcome) completed.
    public var lastAttemptTime: Date?
    /// The status of the last fetch.
    public var lastFetchStatus: RemoteConfigFetchStatus = .noFetchYet
    /// The message of the last failure, if the last fetch failed or was throttled.
    public var lastError: String?
    /// Until when fetches are throttled, if backoff is in effect.
    public var throttleEndTime: Date?
    /// The current backoff interval in seconds before jitter (0 when not backing off).
    public var backoffInterval: TimeInterval = 0
    /// The template version of the fetched config.
    public var fetchedTemplateVersion: String?
    /// The template version of the active config.
    public var activeTemplateVersion: String?
    /// When the active config was last replaced by activation.
    public var lastActivationTime: Date?
    /// The custom signals sent with each fetch (string form).
    public var customSignals: [String: String] = [:]
    /// The provider's ``RemoteConfigProvider/deviceContext`` at the last successful fetch; a change skips the
    /// minimum fetch interval and backoff. `nil` before the first fetch (or in files written before it existed).
    public var deviceContext: [String: String]?

    /// Creates empty metadata (no fetch yet).
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case version, eTag, lastFetchTime, lastAttemptTime, lastFetchStatus, lastError, throttleEndTime
        case backoffInterval, fetchedTemplateVersion, activeTemplateVersion, lastActivationTime, customSignals
        case deviceContext
    }

    /// Decodes metadata, tolerating missing fields (each falls back to its empty value).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` if a present field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        eTag = try container.decodeIfPresent(String.self, forKey: .eTag)
        lastFetchTime = try container.decodeIfPresent(Date.self, forKey: .lastFetchTime)
        lastAttemptTime = try container.decodeIfPresent(Date.self, forKey: .lastAttemptTime)
        lastFetchStatus =
            try container.decodeIfPresent(RemoteConfigFetchStatus.self, forKey: .lastFetchStatus) ?? .noFetchYet
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        throttleEndTime = try container.decodeIfPresent(Date.self, forKey: .throttleEndTime)
        backoffInterval = try container.decodeIfPresent(TimeInterval.self, forKey: .backoffInterval) ?? 0
        fetchedTemplateVersion = try container.decodeIfPresent(String.self, forKey: .fetchedTemplateVersion)
        activeTemplateVersion = try container.decodeIfPresent(String.self, forKey: .activeTemplateVersion)
        lastActivationTime = try container.decodeIfPresent(Date.self, forKey: .lastActivationTime)
        customSignals = try container.decodeIfPresent([String: String].self, forKey: .customSignals) ?? [:]
        deviceContext = try container.decodeIfPresent([String: String].self, forKey: .deviceContext)
    }
}
