/// A JSON scalar read as text: strings as they are, numbers and booleans as their JSON spelling.
///
/// Unleash sends strategy parameters and context fields as strings, but hand-written states and contexts often
/// carry `"rollout": 50` or `"userId": 42`; reading those as text keeps such input working.
struct LenientString: Decodable, Sendable, Hashable {
    let value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = text
        } else if let flag = try? container.decode(Bool.self) {
            value = flag ? "true" : "false"
        } else if let integer = try? container.decode(Int64.self) {
            value = String(integer)
        } else if let number = try? container.decode(Double.self) {
            value = String(number)
        } else {
            throw DecodingError.typeMismatch(
                String.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "expected a string, number or boolean"))
        }
    }
}
