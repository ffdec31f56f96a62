/// Reading an override file with ``JSONReader`` in one pass: entries go straight into ``OverrideValue``s, other
/// top-level members are kept as their text. What the members hold is checked afterwards by
/// `OverrideFileFormat.decodeContents`, in the order its messages are documented.
struct StoreDocument {
    /// The top-level value when it is not an object.
    var root: JSONValue?
    /// The top-level member names, in the file's order.
    var names: [String] = []
    /// `version`, if present.
    var version: JSONValue?
    /// `overrides`, when it is an object.
    var overrides: [String: OverrideValue]?
    /// `overrides`, when it is anything else.
    var otherOverrides: JSONValue?
    /// Entries that are `"default"` or `null` (documents only).
    var removals: Set<String> = []
    /// `expiry`, when the rules read it.
    var expiry: JSONValue?
    /// Every other top-level member, as its text.
    var otherMembers: [OverrideFileFormat.Contents.Member] = []

    /// A syntax error as the store's messages quote it: `line 1, column 9: expected a value, found '}'`, or the
    /// path for an error without a place.
    static func detail(_ failure: ReadFailure) -> String {
        failure.location == nil && !failure.path.isEmpty ? "at \(failure.jsonPath): \(failure.message)" : failure.detail
    }
}

extension JSONReader {
    /// An override file's top-level value.
    mutating func readOverrideDocument(_ rules: OverrideFileFormat.Rules) throws(ReadFailure) -> StoreDocument {
        var document = StoreDocument()
        guard byte == UInt8(ascii: "{") else {
            document.root = try readJSONValue()
            return document
        }
        try open()
        var seen: Set<String> = []
        var state = ObjectState()
        while let token = try nextFieldName(&state) {
            let name = token.string
            guard seen.insert(name).inserted else { throw Self.duplicateMember(name) }
            document.names.append(name)
            do throws(ReadFailure) {
                switch name {
                case "version":
                    document.version = try readJSONValue()
                case "overrides":
                    if byte == UInt8(ascii: "{") {
                        try readOverrideEntries(acceptsDefault: rules.acceptsDefault, into: &document)
                    } else {
                        document.otherOverrides = try readJSONValue()
                    }
                case "expiry" where rules.readsExpiry:
                    document.expiry = try readJSONValue()
                default:
                    let start = offset
                    try skipValue()
                    let json = String(
                        decoding: UnsafeBufferPointer(start: base + start, count: offset - start), as: UTF8.self)
                    document.otherMembers.append(OverrideFileFormat.Contents.Member(name: name, json: json))
                }
            } catch {
                throw error.inside(.field(name))
            }
        }
        return document
    }

    /// The `overrides` object: key → value; `"default"` and `null` are removals when `acceptsDefault`.
    private mutating func readOverrideEntries(acceptsDefault: Bool, into document: inout StoreDocument)
        throws(ReadFailure)
    {
        try open()
        var overrides: [String: OverrideValue] = [:]
        var state = ObjectState()
        while let token = try nextFieldName(&state) {
            let key = token.string
            let value: OverrideValue?  // `nil`: a removal
            do throws(ReadFailure) {
                if acceptsDefault, try readNull() {
                    value = nil
                } else {
                    let read = try readOverrideValue()
                    value = acceptsDefault && read.json == #""default""# ? nil : read
                }
            } catch {
                throw error.inside(.field(key))
            }
            if let value {
                if overrides.updateValue(value, forKey: key) != nil
                    || (acceptsDefault && document.removals.contains(key))
                {
                    throw Self.duplicateMember(key)
                }
            } else if overrides[key] != nil || !document.removals.insert(key).inserted {
                throw Self.duplicateMember(key)
            }
        }
        document.overrides = overrides
    }
}
