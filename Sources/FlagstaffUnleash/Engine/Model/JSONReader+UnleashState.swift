import Flagstaff
import Foundation

/// The client API's bodies (`/api/client/features` and `/api/client/delta`) read in one pass with the package's
/// ``JSONReader``, straight into the engine's definitions. Members the engine does not use are skipped (their
/// syntax checked, as everywhere: a repeated name is an error); `null` is the same as a missing optional member.
extension JSONReader {
    private enum StateMember: String, CaseIterable { case version, features, segments, events }
    private enum EventMember: String, CaseIterable {
        case type, features, segments, feature, featureName, segment, segmentId
    }
    private enum FeatureMember: String, CaseIterable {
        case name, enabled, description, type, project, stale, impressionData, strategies, variants, dependencies
    }
    private enum StrategyMember: String, CaseIterable { case name, parameters, constraints, segments, variants }
    private enum ConstraintMember: String, CaseIterable {
        case contextName, `operator`, values, value, inverted, caseInsensitive
    }
    private enum SegmentMember: String, CaseIterable { case id, constraints }
    private enum VariantMember: String, CaseIterable { case name, weight, stickiness, payload, overrides }
    private enum OverrideMember: String, CaseIterable { case contextName, values }
    private enum PayloadMember: String, CaseIterable { case type, value }
    private enum DependencyMember: String, CaseIterable { case feature, enabled, variants }

    private static let stateMembers = FieldTable(StateMember.self)
    private static let eventMembers = FieldTable(EventMember.self)
    private static let featureMembers = FieldTable(FeatureMember.self)
    private static let strategyMembers = FieldTable(StrategyMember.self)
    private static let constraintMembers = FieldTable(ConstraintMember.self)
    private static let segmentMembers = FieldTable(SegmentMember.self)
    private static let variantMembers = FieldTable(VariantMember.self)
    private static let overrideMembers = FieldTable(OverrideMember.self)
    private static let payloadMembers = FieldTable(PayloadMember.self)
    private static let dependencyMembers = FieldTable(DependencyMember.self)

    /// Reads a client-features or delta body. With `keepingJSON`, each feature and segment keeps its JSON text.
    /// A body with `events` is a delta body (its other members are read and not used), else one with `features`
    /// a full body.
    mutating func readUnleashState(keepingJSON: Bool) throws(ReadFailure) -> StateDocument {
        var features: [FeatureDefinition]?
        var segments: [SegmentDefinition]?
        var events: [DeltaEvent]?
        try readMembers(Self.stateMembers, expected: "a JSON object", unknown: .skip) {
            reader, member throws(ReadFailure) in
            switch member {
            case .version: _ = try reader.readNull() ? nil : try reader.readUnleashInteger()
            case .features: features = try reader.readFeatures(keepingJSON: keepingJSON)
            case .segments: segments = try reader.readNull() ? nil : try reader.readSegments(keepingJSON: keepingJSON)
            case .events:
                events = try reader.readRequiredArray { reader throws(ReadFailure) in
                    try reader.readDeltaEvent(keepingJSON: keepingJSON)
                }
            }
        }
        if let events { return .delta(events) }
        guard let features else {
            throw ReadFailure(
                message: #"expected a /api/client/features body (with "features") or a delta body (with "events")"#)
        }
        return .full(features: features, segments: segments ?? [])
    }

    private mutating func readDeltaEvent(keepingJSON: Bool) throws(ReadFailure) -> DeltaEvent {
        var type: String?
        var features: [FeatureDefinition]?
        var segments: [SegmentDefinition]?
        var feature: FeatureDefinition?
        var featureName: String?
        var segment: SegmentDefinition?
        var segmentID: Int?
        try readMembers(Self.eventMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            if try reader.readNull() { return }
            switch member {
            case .type: type = try reader.readString()
            case .features: features = try reader.readFeatures(keepingJSON: keepingJSON)
            case .segments: segments = try reader.readSegments(keepingJSON: keepingJSON)
            case .feature: feature = try reader.readFeature(keepingJSON: keepingJSON)
            case .featureName: featureName = try reader.readString()
            case .segment: segment = try reader.readSegment(keepingJSON: keepingJSON)
            case .segmentId: segmentID = try reader.readUnleashInteger()
            }
        }
        switch try Self.required(type, "type") {
        case "hydration": return .hydration(features: features ?? [], segments: segments ?? [])
        case "feature-updated": return .featureUpdated(try Self.required(feature, "feature"))
        case "feature-removed": return .featureRemoved(name: try Self.required(featureName, "featureName"))
        case "segment-updated": return .segmentUpdated(try Self.required(segment, "segment"))
        case "segment-removed": return .segmentRemoved(id: try Self.required(segmentID, "segmentId"))
        case let other: return .unknown(type: other)
        }
    }

    private mutating func readFeatures(keepingJSON: Bool) throws(ReadFailure) -> [FeatureDefinition] {
        try readRequiredArray { reader throws(ReadFailure) in try reader.readFeature(keepingJSON: keepingJSON) }
    }

    private mutating func readSegments(keepingJSON: Bool) throws(ReadFailure) -> [SegmentDefinition] {
        try readRequiredArray { reader throws(ReadFailure) in try reader.readSegment(keepingJSON: keepingJSON) }
    }

    private mutating func readFeature(keepingJSON: Bool) throws(ReadFailure) -> FeatureDefinition {
        let start = offset
        var feature = FeatureDefinition()
        var name: String?
        var enabled: Bool?
        try readMembers(Self.featureMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .name: name = try reader.readString()
            case .enabled: enabled = try reader.readRequiredBool()
            case .description: feature.description = try reader.readOptionalString()
            case .type: feature.type = try reader.readOptionalString()
            case .project: feature.project = try reader.readOptionalString()
            case .stale: feature.stale = try reader.readOptionalBool()
            case .impressionData: feature.impressionData = try reader.readOptionalBool()
            case .strategies:
                feature.strategies = try reader.readOptionalArray { reader throws(ReadFailure) in
                    try reader.readStrategy()
                }
            case .variants:
                feature.variants = try reader.readOptionalArray { reader throws(ReadFailure) in try reader.readVariant()
                }
            case .dependencies:
                feature.dependencies = try reader.readOptionalArray { reader throws(ReadFailure) in
                    try reader.readDependency()
                }
            }
        }
        feature.name = try Self.required(name, "name")
        feature.enabled = try Self.required(enabled, "enabled")
        if keepingJSON { feature.json = text(from: start) }
        return feature
    }

    private mutating func readStrategy() throws(ReadFailure) -> StrategyDefinition {
        var strategy = StrategyDefinition()
        var name: String?
        try readMembers(Self.strategyMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .name: name = try reader.readString()
            case .parameters: strategy.parameters = try reader.readParameters()
            case .constraints:
                strategy.constraints = try reader.readOptionalArray { reader throws(ReadFailure) in
                    try reader.readConstraint()
                }
            case .segments:
                strategy.segments = try reader.readOptionalArray { reader throws(ReadFailure) in
                    try reader.readUnleashInteger()
                }
            case .variants:
                strategy.variants = try reader.readOptionalArray { reader throws(ReadFailure) in
                    try reader.readVariant()
                }
            }
        }
        strategy.name = try Self.required(name, "name")
        return strategy
    }

    /// Strategy parameters: values are read as text (``readLenientString()``); `null` values are left out.
    private mutating func readParameters() throws(ReadFailure) -> [String: String] {
        if try readNull() { return [:] }
        guard byte == UInt8(ascii: "{") else { throw try typeMismatch(expected: "an object") }
        try open()
        var state = ObjectState()
        var parameters: [String: String] = [:]
        var names: Set<String> = []
        while let token = try nextFieldName(&state) {
            let name = token.string
            guard names.insert(name).inserted else { throw Self.duplicateMember(name) }
            do throws(ReadFailure) {
                if try readNull() { continue }
                parameters[name] = try readLenientString()
            } catch {
                throw error.inside(.field(name))
            }
        }
        return parameters
    }

    private mutating func readConstraint() throws(ReadFailure) -> ConstraintDefinition {
        var constraint = ConstraintDefinition()
        var contextName: String?
        var comparison: String?
        try readMembers(Self.constraintMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .contextName: contextName = try reader.readString()
            case .operator: comparison = try reader.readString()
            case .values:
                constraint.values = try reader.readOptionalArray { reader throws(ReadFailure) in
                    try reader.readLenientString()
                }
            case .value: constraint.value = try reader.readNull() ? nil : try reader.readLenientString()
            case .inverted: constraint.inverted = try reader.readOptionalBool() ?? false
            case .caseInsensitive: constraint.caseInsensitive = try reader.readOptionalBool() ?? false
            }
        }
        constraint.contextName = try Self.required(contextName, "contextName")
        constraint.operator = try Self.required(comparison, "operator")
        return constraint
    }

    private mutating func readSegment(keepingJSON: Bool) throws(ReadFailure) -> SegmentDefinition {
        let start = offset
        var segment = SegmentDefinition()
        var id: Int?
        try readMembers(Self.segmentMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .id: id = try reader.readUnleashInteger()
            case .constraints:
                segment.constraints = try reader.readOptionalArray { reader throws(ReadFailure) in
                    try reader.readConstraint()
                }
            }
        }
        segment.id = try Self.required(id, "id")
        if keepingJSON { segment.json = text(from: start) }
        return segment
    }

    private mutating func readVariant() throws(ReadFailure) -> VariantDefinition {
        var variant = VariantDefinition()
        var name: String?
        try readMembers(Self.variantMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .name: name = try reader.readString()
            case .weight: variant.weight = try reader.readNull() ? 0 : try reader.readUnleashInteger()
            case .stickiness: variant.stickiness = try reader.readOptionalString()
            case .payload: variant.payload = try reader.readNull() ? nil : try reader.readPayload()
            case .overrides:
                variant.overrides = try reader.readOptionalArray { reader throws(ReadFailure) in
                    try reader.readOverride()
                }
            }
        }
        variant.name = try Self.required(name, "name")
        return variant
    }

    private mutating func readOverride() throws(ReadFailure) -> VariantDefinition.Override {
        var contextName: String?
        var values: [String]?
        try readMembers(Self.overrideMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .contextName: contextName = try reader.readString()
            case .values:
                values = try reader.readRequiredArray { reader throws(ReadFailure) in try reader.readString() }
            }
        }
        return VariantDefinition.Override(
            contextName: try Self.required(contextName, "contextName"), values: try Self.required(values, "values"))
    }

    private mutating func readPayload() throws(ReadFailure) -> VariantDefinition.Payload {
        var type: String?
        var value: String?
        try readMembers(Self.payloadMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .type: type = try reader.readString()
            case .value: value = try reader.readLenientString()
            }
        }
        return VariantDefinition.Payload(
            type: try Self.required(type, "type"), value: try Self.required(value, "value"))
    }

    private mutating func readDependency() throws(ReadFailure) -> DependencyDefinition {
        var dependency = DependencyDefinition()
        var feature: String?
        try readMembers(Self.dependencyMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .feature: feature = try reader.readString()
            case .enabled: dependency.enabled = try reader.readOptionalBool() ?? true
            case .variants:
                dependency.variants = try reader.readOptionalArray { reader throws(ReadFailure) in
                    try reader.readString()
                }
            }
        }
        dependency.feature = try Self.required(feature, "feature")
        return dependency
    }
}

// MARK: Values

extension JSONReader {
    /// A required Boolean: `null` is an error.
    mutating func readRequiredBool() throws(ReadFailure) -> Bool {
        guard byte != UInt8(ascii: "n"), let value = try readOptionalBool() else {
            throw try typeMismatch(expected: "a boolean (true or false)")
        }
        return value
    }

    /// An array read with `element`; `null` is an empty array.
    mutating func readOptionalArray<Element>(_ element: (inout JSONReader) throws(ReadFailure) -> Element)
        throws(ReadFailure) -> [Element]
    {
        if try readNull() { return [] }
        return try readRequiredArray(element)
    }

    /// An array read with `element`; anything else (`null` too) is an error.
    mutating func readRequiredArray<Element>(_ element: (inout JSONReader) throws(ReadFailure) -> Element)
        throws(ReadFailure) -> [Element]
    {
        guard byte == UInt8(ascii: "[") else { throw try typeMismatch(expected: "an array") }
        return try readArray(element)
    }

    /// A whole number that fits in `Int` (`3`, also `3.0` and `3e0`, as `JSONDecoder` takes them).
    mutating func readUnleashInteger() throws(ReadFailure) -> Int {
        guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            throw try typeMismatch(expected: "an integer")
        }
        let number = try readNumberText()
        if number.isWhole, let integer = Int(number.text) { return integer }
        guard let integer = Int(exactly: number.value) else {
            throw ReadFailure(message: "expected an integer, found \(number.text.prefix(40))")
        }
        return integer
    }

    /// A scalar as text: strings as they are, numbers and Booleans as their JSON spelling (Unleash sends
    /// strategy parameters and context fields as strings, but hand-written states carry `"rollout": 50`).
    mutating func readLenientString() throws(ReadFailure) -> String {
        switch byte {
        case UInt8(ascii: "\""):
            return try readStringToken().string
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return try readRequiredBool() ? "true" : "false"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try readNumberText()
            if number.isWhole, let integer = Int64(number.text) { return String(integer) }
            if let integer = Int64(exactly: number.value) { return String(integer) }
            return String(number.value)
        default:
            throw try typeMismatch(expected: "a string, number or boolean")
        }
    }

    /// The text from `start` to the reader's position (a value just read).
    func text(from start: Int) -> Data {
        Data(UnsafeBufferPointer(start: base + start, count: offset - start))
    }

    /// `value`, or a failure naming the missing member.
    static func required<T>(_ value: T?, _ name: String) throws(ReadFailure) -> T {
        guard let value else {
            throw ReadFailure(message: "required key \"\(name)\" is missing", path: [.field(name)])
        }
        return value
    }
}

extension UnleashStateError {
    /// The reader's failure: a syntax error for the whole text (its line and column in the message), anything
    /// else at its path.
    init(_ failure: ReadFailure) {
        self.init(path: failure.offset == nil ? failure.unleashPath : "", message: failure.unleashMessage)
    }
}

extension ReadFailure {
    /// The path as Unleash's messages write it: `features[2].strategies[0].name` (empty for the whole text).
    var unleashPath: String {
        components.reduce(into: "") { text, component in
            switch component {
            case .member(let name): text += text.isEmpty ? name : ".\(name)"
            case .index(let index): text += "[\(index)]"
            }
        }
    }

    /// The message without the path: a syntax error as `not valid JSON at line 2, column 13 (…)`.
    var unleashMessage: String {
        guard let location else { return message }
        return "not valid JSON at line \(location.line), column \(location.column) (\(message))"
    }
}
