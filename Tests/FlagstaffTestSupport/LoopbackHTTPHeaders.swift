import Foundation

/// An ordered list of HTTP header fields whose names compare case-insensitively.
///
/// Used by both ``LoopbackRequest`` and ``LoopbackResponse``. Lookups ignore case (`"ETag"` finds
/// `"etag"`); iteration yields fields in the order they were received or added, with their original spelling.
package struct LoopbackHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as received or as it will be sent.
    package struct Field: Sendable, Equatable {
        /// The field name with its original spelling.
        package var name: String
        /// The field value, without surrounding whitespace.
        package var value: String
    }

    private var fields: [Field]

    /// Creates an empty header list.
    package init() {
        fields = []
    }

    /// Creates a header list from name/value pairs, in order.
    ///
    /// - Parameter elements: The fields; duplicate names are kept as separate fields.
    package init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a header list from name/value pairs, in order.
    ///
    /// - Parameter pairs: The fields; duplicate names are kept as separate fields.
    package init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name` (case-insensitive), or `nil`.
    ///
    /// Setting a value replaces every field with that name by one field; setting `nil` removes them.
    ///
    /// - Parameter name: The field name, in any case.
    package subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Every value of the fields named `name` (case-insensitive), in order.
    ///
    /// - Parameter name: The field name, in any case.
    /// - Returns: The values; empty if the header is absent.
    package func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// Whether a field named `name` (case-insensitive) is present.
    ///
    /// - Parameter name: The field name, in any case.
    package func contains(_ name: String) -> Bool {
        self[name] != nil
    }

    /// Appends a field, keeping any existing fields with the same name.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    package mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// The number of fields.
    package var count: Int { fields.count }

    /// Iterates the fields in order.
    package func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}
