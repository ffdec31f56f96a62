import Foundation

/// A `Decoder` over one ``RemoteConfigValue`` that answers single-value requests with the value's typed
/// accessors, as the Firebase Apple SDK's decoder does (`Bool` → `boolValue`, numbers → `numberValue` with a
/// must-fit check, `String` → `stringValue`, `Data` → raw bytes, `Date` unsupported).
///
/// A type that asks for a keyed or unkeyed container is not decoded here: the decoder throws
/// ``NeedsContainer`` and ``RemoteConfigValue/decoded(as:)`` decodes the value's JSON instead.
struct RemoteConfigValueDecoder: Decoder {
    enum ContainerKind: Equatable { case keyed, unkeyed }

    /// Thrown when the type being decoded wants a keyed or unkeyed container.
    struct NeedsContainer: Error { let kind: ContainerKind }

    let value: RemoteConfigValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw NeedsContainer(kind: .keyed)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw NeedsContainer(kind: .unkeyed)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(decoder: self)
    }

    /// Decodes `T`, handling the types the SDK special-cases before asking `T` to decode itself.
    func decodeTopLevel<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            throw DecodingError.typeMismatch(
                Date.self,
                .init(
                    codingPath: [],
                    debugDescription:
                        "Date is not supported (as in the Firebase SDK); decode a String or a number and convert it"))
        }
        if T.self == Data.self, let data = value.dataValue as? T { return data }
        if T.self == Decimal.self, let decimal = Decimal(value.numberValue) as? T { return decimal }
        return try T(from: self)
    }

    /// The number for a numeric request: ``RemoteConfigValue/numberValue``.
    fileprivate var number: Double { value.numberValue }

    fileprivate func exactInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let number = self.number
        guard let integer = I(exactly: number) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [],
                    debugDescription:
                        "the number \(RemoteConfigValue.decimalText(number)) does not fit in \(I.self)"))
        }
        return integer
    }

    private struct SingleValue: SingleValueDecodingContainer {
        let decoder: RemoteConfigValueDecoder
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool { decoder.value.boolValue }
        func decode(_ type: String.Type) throws -> String { decoder.value.stringValue }
        func decode(_ type: Double.Type) throws -> Double { decoder.number }
        func decode(_ type: Float.Type) throws -> Float {
            let number = decoder.number
            guard abs(number) <= Double(Float.greatestFiniteMagnitude) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: [],
                        debugDescription: "the number \(RemoteConfigValue.decimalText(number)) does not fit in Float"))
            }
            return Float(number)
        }
        func decode(_ type: Int.Type) throws -> Int { try decoder.exactInteger(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoder.exactInteger(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoder.exactInteger(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoder.exactInteger(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoder.exactInteger(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoder.exactInteger(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.exactInteger(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.exactInteger(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.exactInteger(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.exactInteger(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeTopLevel(type) }
    }
}
