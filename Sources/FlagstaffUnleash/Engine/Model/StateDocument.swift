/// What `takeState` accepts: a full `/api/client/features` body or a delta body.
enum StateDocument: Decodable, Sendable {
    case full(ClientFeaturesBody)
    case delta(DeltaBody)

    private enum CodingKeys: String, CodingKey { case features, events }

    init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<CodingKeys>
        do {
            container = try decoder.container(keyedBy: CodingKeys.self)
        } catch {
            throw DecodingError.typeMismatch(
                [String: String].self,
                DecodingError.Context(codingPath: [], debugDescription: "expected a JSON object"))
        }
        if container.contains(.events) {
            self = .delta(try DeltaBody(from: decoder))
        } else if container.contains(.features) {
            self = .full(try ClientFeaturesBody(from: decoder))
        } else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [],
                    debugDescription:
                        "expected a /api/client/features body (with \"features\") or a delta body (with \"events\")"))
        }
    }
}
