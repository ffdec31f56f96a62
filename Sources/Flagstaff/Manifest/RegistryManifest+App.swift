import Foundation

extension RegistryManifest {
    /// What an app reported about itself when it announced its manifest beside its store: its build target, when
    /// it reported, and the values of the members only it can evaluate (build-target rules, dynamic closures,
    /// remote values), as it read them below any QA override.
    ///
    /// Tools show these values as the app's, with the time, and never evaluate those members themselves:
    /// ```json
    /// "app": {"buildTarget": "debug", "reportedAt": "2026-11-28T18:00:00.000Z",
    ///         "values": {"internalMenu": {"value": true, "source": "buildTarget"},
    ///                    "feed.pageSize": {"value": 20, "source": "default"}}}
    /// ```
    /// A `source` of `default` for a remote member means the app had no remote value yet and reads its default.
    package struct AppReport: Sendable, Hashable {
        /// The build target the app runs as.
        package var buildTarget: BuildTarget
        /// When the app reported (milliseconds, UTC).
        package var reportedAt: Date
        /// The app's own value of each member it alone can evaluate, by key.
        package var values: [String: ReportedValue]

        /// Creates a report.
        package init(buildTarget: BuildTarget, reportedAt: Date, values: [String: ReportedValue]) {
            self.buildTarget = buildTarget
            self.reportedAt = reportedAt
            self.values = values
        }
    }

    /// A member's value as its app read it, and the layer that gave it.
    package struct ReportedValue: Sendable, Hashable {
        /// The value (`true`/`false` for flags).
        package var value: JSONSettingValue
        /// Where the app's value came from.
        package var source: ReportedSource

        /// Creates a reported value.
        package init(value: JSONSettingValue, source: ReportedSource) {
            self.value = value
            self.source = source
        }
    }

    /// The layer an app's own value came from.
    package enum ReportedSource: String, Sendable, Hashable, CaseIterable {
        /// A build-target rule.
        case buildTarget
        /// A dynamic closure.
        case dynamic
        /// A remote-config provider's value.
        case remote
        /// The declared default (for a remote member: no remote value yet).
        case `default`
    }
}

extension RegistryManifest.AppReport {
    /// `debug build, reported 2026-11-28 18:00:00 UTC`: how tools say where a value came from.
    package var summary: String {
        let time = JournalTime.text(reportedAt)
        return
            "\(buildTarget.rawValue) build, reported \(time.prefix(10)) \(time.dropFirst(11).prefix(8)) UTC"
    }

    /// The JSON of the report (members in a fixed order, values canonical).
    func json() -> String {
        var text = #"{"buildTarget":"# + JSONText.quoted(buildTarget.rawValue)
        text += #","reportedAt":"# + JSONText.quoted(JournalTime.text(reportedAt)) + #","values":{"#
        for (index, key) in values.keys.sorted().enumerated() {
            guard let reported = values[key] else { continue }
            if index > 0 { text += "," }
            text += JSONText.quoted(key) + #":{"value":"# + JSONSettingValue.storedValue(of: reported.value).json
            text += #","source":"# + JSONText.quoted(reported.source.rawValue) + "}"
        }
        return text + "}}"
    }
}

extension RegistryManifest.AppReport: Codable {
    /// Decodes a report by the rules of the manifest reader.
    /// - Throws: `DecodingError.dataCorrupted` at the JSON path of the value and with the message of `JSONReader`.
    package init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(from: decoder) { reader throws(ReadFailure) in try reader.readAppReport() }
    }

    /// Encodes the report as ``json()`` writes it.
    package func encode(to encoder: any Encoder) throws {
        let value = try JSONValue.read(Data(json().utf8))
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// The manifest's `app` section.
extension JSONReader {
    enum AppReportField: String, CaseIterable { case buildTarget, reportedAt, values }
    enum ReportedValueField: String, CaseIterable { case value, source }

    static let appReportFields = FieldTable(AppReportField.self)
    static let reportedValueFields = FieldTable(ReportedValueField.self)
    static let reportedSources = FieldTable(RegistryManifest.ReportedSource.self)

    /// The `app` object.
    mutating func readAppReport() throws(ReadFailure) -> RegistryManifest.AppReport {
        var target: BuildTarget?
        var time: Date?
        var values: [String: RegistryManifest.ReportedValue] = [:]
        try readMembers(Self.appReportFields, expected: "an object (the app's report)", unknown: .reject) {
            reader, field throws(ReadFailure) in
            switch field {
            case .buildTarget: target = try reader.readNamed(ManifestFields.buildTarget, what: "build target")
            case .reportedAt:
                let text = try reader.readString()
                guard let date = JournalTime.date(Array(text.utf8)) else {
                    throw ReadFailure(message: "expected a UTC time like 2026-11-28T18:00:00.000Z")
                }
                time = date
            case .values: values = try reader.readReportedValues()
            }
        }
        guard let target else { throw missing("buildTarget") }
        guard let time else { throw missing("reportedAt") }
        return RegistryManifest.AppReport(buildTarget: target, reportedAt: time, values: values)
    }

    private mutating func readReportedValues() throws(ReadFailure) -> [String: RegistryManifest.ReportedValue] {
        guard byte == UInt8(ascii: "{") else {
            throw try typeMismatch(expected: "an object (member keys and the app's values)")
        }
        try open()
        var values: [String: RegistryManifest.ReportedValue] = [:]
        var state = ObjectState()
        while let name = try nextFieldName(&state) {
            let key = name.string
            guard values[key] == nil else { throw Self.duplicateMember(key) }
            do throws(ReadFailure) {
                guard byte == UInt8(ascii: "{") else {
                    throw try typeMismatch(expected: #"an object ({"value": …, "source": …})"#)
                }
                try open()
                var value: JSONSettingValue?
                var source: RegistryManifest.ReportedSource?
                var inner = ObjectState()
                while let field = try nextField(Self.reportedValueFields, &inner) {
                    do throws(ReadFailure) {
                        switch field {
                        case .value: value = try readJSONValue()
                        case .source: source = try readNamed(Self.reportedSources, what: "source")
                        }
                    } catch {
                        throw error.inside(.field(field.rawValue))
                    }
                }
                guard let value else { throw missing("value") }
                guard let source else { throw missing("source") }
                values[key] = RegistryManifest.ReportedValue(value: value, source: source)
            } catch {
                throw error.inside(.field(key))
            }
        }
        return values
    }
}
