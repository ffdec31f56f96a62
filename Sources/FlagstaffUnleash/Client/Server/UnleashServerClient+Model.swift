import Foundation

extension UnleashServerClient.Model {
    /// Applies a state document, as the engine did.
    /// - Returns: The names of the features added, removed or changed (a segment change changes every feature
    ///   that uses segments), sorted.
    mutating func install(_ document: UnleashStateDocument) -> [String] {
        let before = fingerprints()
        switch document {
        case .full(let features, let segments):
            replace(features: features, segments: segments)
        case .delta(let events):
            for event in events { apply(event) }
        }
        let after = fingerprints()
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    private mutating func replace(
        features: [UnleashStateDocument.Feature], segments: [UnleashStateDocument.Segment]
    ) {
        (order, self.features, self.segments) = ([], [:], [:])
        for feature in features { update(feature) }
        for segment in segments { self.segments[segment.id] = segment.json }
    }

    private mutating func update(_ feature: UnleashStateDocument.Feature) {
        if features.updateValue(feature.json, forKey: feature.name) == nil { order.append(feature.name) }
    }

    private mutating func apply(_ event: UnleashStateDocument.Event) {
        switch event {
        case .hydration(let features, let segments):
            replace(features: features, segments: segments)
        case .featureUpdated(let feature):
            update(feature)
        case .featureRemoved(let name):
            if features.removeValue(forKey: name) != nil { order.removeAll { $0 == name } }
        case .segmentUpdated(let segment):
            segments[segment.id] = segment.json
        case .segmentRemoved(let id):
            segments[id] = nil
        }
    }

    /// Each feature's JSON, followed by every segment's for features that use segments.
    private func fingerprints() -> [String: Data] {
        let allSegments = segments.keys.sorted().reduce(into: Data()) { data, id in data.append(segments[id] ?? Data())
        }
        let marker = Data("\"segments\"".utf8)
        return features.mapValues { json in json.range(of: marker) == nil ? json : json + allSegments }
    }

    /// The whole state as a `/api/client/features` body: what is persisted, also after a delta.
    func document() -> Data {
        var data = Data(#"{"version":2,"features":["#.utf8)
        data.append(contentsOf: order.compactMap { features[$0] }.joined(separator: Data(",".utf8)))
        data.append(contentsOf: Data(#"],"segments":["#.utf8))
        data.append(contentsOf: segments.keys.sorted().compactMap { segments[$0] }.joined(separator: Data(",".utf8)))
        data.append(contentsOf: Data("]}".utf8))
        return data
    }
}
