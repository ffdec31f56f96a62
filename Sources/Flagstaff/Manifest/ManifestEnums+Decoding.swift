/// Decoding of the manifest's enumerations by the rules of the manifest reader (errors list the accepted values).
extension FeatureKind {
    /// Decodes a kind name, or throws listing the accepted names.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(from: decoder) { reader throws(ReadFailure) in
            try reader.readNamed(ManifestFields.kind, what: "kind")
        }
    }
}

extension BuildTarget {
    /// Decodes a build target name, or throws listing the accepted names.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(from: decoder) { reader throws(ReadFailure) in
            try reader.readNamed(ManifestFields.buildTarget, what: "build target")
        }
    }
}
