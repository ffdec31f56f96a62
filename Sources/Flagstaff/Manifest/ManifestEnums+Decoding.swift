/// Decoding of the manifest's enumerations with errors that list the accepted values.
extension FeatureKind {
    /// Decodes a kind name, or throws listing the accepted names.
    public init(from decoder: any Decoder) throws {
        self = try decodeNamed(from: decoder, what: "kind")
    }
}

extension BuildTarget {
    /// Decodes a build target name, or throws listing the accepted names.
    public init(from decoder: any Decoder) throws {
        self = try decodeNamed(from: decoder, what: "build target")
    }
}

private func decodeNamed<T: RawRepresentable & CaseIterable>(from decoder: any Decoder, what: String) throws -> T
where T.RawValue == String {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    if let value = T(rawValue: name) { return value }
    let accepted = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    throw DecodingError.dataCorrupted(
        DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "unknown \(what) \"\(name)\" (expected one of: \(accepted))"))
}
