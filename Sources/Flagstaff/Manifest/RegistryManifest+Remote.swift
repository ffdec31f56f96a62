import Foundation

extension RegistryManifest {
    /// The remote-config provider of a manifest: where its `remote` flags get their values.
    ///
    /// ```json
    /// "remote": {"provider": "firebase", "projectID": "moments-demo", "apiKey": "AIza…", "appID": "1:42:ios:abc",
    ///            "baseURL": "https://firebaseremoteconfig.googleapis.com", "minimumFetchInterval": 3600,
    ///            "defaults": {"moments.isRoundedAvatar": true, "maxItems": 20}}
    /// ```
    /// The core only carries this description; tools that link a provider (the `flagstaff` CLI links
    /// Firebase) build it and check the fields that provider needs. Unknown fields are errors.
    package struct Remote: Codable, Sendable, Hashable {
        /// The provider's name, e.g. `firebase`.
        package var provider: String
        /// The provider's project identifier (Firebase: the project ID).
        package var projectID: String?
        /// The API key sent with fetches.
        package var apiKey: String?
        /// The app identifier (Firebase: the Google app ID).
        package var appID: String?
        /// The service's base URL, when it is not the provider's default (e.g. a local emulator).
        package var baseURL: String?
        /// The config namespace (Firebase: `firebase` by default).
        package var namespace: String?
        /// The minimum number of seconds between fetches, when not the provider's default.
        package var minimumFetchInterval: Double?
        /// In-app defaults by remote-config key, used until a fetched value is active.
        package var defaults: [String: DefaultValue]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case provider, projectID, apiKey, appID, baseURL, namespace, minimumFetchInterval, defaults
        }

        /// Creates a provider description.
        /// - Parameters:
        ///   - provider: the provider's name, e.g. `firebase`.
        ///   - projectID: the project identifier.
        ///   - apiKey: the API key.
        ///   - appID: the app identifier.
        ///   - baseURL: the service's base URL, if not the default.
        ///   - namespace: the config namespace, if not the default.
        ///   - minimumFetchInterval: seconds between fetches, if not the default.
        ///   - defaults: in-app defaults by key.
        package init(
            provider: String, projectID: String? = nil, apiKey: String? = nil, appID: String? = nil,
            baseURL: String? = nil, namespace: String? = nil, minimumFetchInterval: Double? = nil,
            defaults: [String: DefaultValue] = [:]
        ) {
            self.provider = provider
            self.projectID = projectID
            self.apiKey = apiKey
            self.appID = appID
            self.baseURL = baseURL
            self.namespace = namespace
            self.minimumFetchInterval = minimumFetchInterval
            self.defaults = defaults
        }

        /// Decodes the provider section by the rules of the manifest reader.
        /// - Throws: `DecodingError.dataCorrupted` at the JSON path of the value and with the message of `JSONReader`.
        package init(from decoder: any Decoder) throws {
            self = try JSONReader.decode(from: decoder) { reader throws(ReadFailure) in try reader.readRemote() }
        }

        /// Encodes the description, leaving out absent fields and empty defaults.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(provider, forKey: .provider)
            try container.encodeIfPresent(projectID, forKey: .projectID)
            try container.encodeIfPresent(apiKey, forKey: .apiKey)
            try container.encodeIfPresent(appID, forKey: .appID)
            try container.encodeIfPresent(baseURL, forKey: .baseURL)
            try container.encodeIfPresent(namespace, forKey: .namespace)
            try container.encodeIfPresent(minimumFetchInterval, forKey: .minimumFetchInterval)
            if !defaults.isEmpty { try container.encode(defaults, forKey: .defaults) }
        }
    }

    /// A remote-config default: a boolean, a number or a string (as in a Firebase defaults file).
    package enum DefaultValue: Codable, Sendable, Hashable {
        /// `true` or `false`.
        case bool(Bool)
        /// A number.
        case number(Double)
        /// A string.
        case string(String)

        /// Decodes a boolean, number or string; anything else is an error naming the JSON path.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath, debugDescription: "expected a boolean, a number or a string"))
            }
        }

        /// Encodes the value as its JSON scalar.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            }
        }

        /// The value as Foundation passes it to remote-config APIs (`Bool`, `Double` or `String`).
        package var foundationValue: any Sendable {
            switch self {
            case .bool(let value): return value
            case .number(let value): return value
            case .string(let value): return value
            }
        }
    }
}
