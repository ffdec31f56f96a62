import Foundation

/// A client-API body as the server-side client keeps it beside the engine: each feature's and segment's JSON text
/// as the body holds it, so the client can tell which features an answer changed and persist the whole state after
/// a delta. Made from the one read of the body the engine takes (``UnleashEngine/read(_:keepingJSON:)``).
enum UnleashStateDocument: Sendable {
    /// A feature's name and its JSON.
    struct Feature: Sendable {
        var name: String
        var json: Data
    }

    /// A segment's id and its JSON.
    struct Segment: Sendable {
        var id: Int
        var json: Data
    }

    /// One event of a delta body.
    enum Event: Sendable {
        case hydration(features: [Feature], segments: [Segment])
        case featureUpdated(Feature)
        case featureRemoved(String)
        case segmentUpdated(Segment)
        case segmentRemoved(Int)
    }

    /// `/api/client/features`: the whole state.
    case full(features: [Feature], segments: [Segment])
    /// `/api/client/delta`: events applied in order.
    case delta([Event])

    /// The body as the engine read it (``UnleashEngine/read(_:keepingJSON:)`` with `keepingJSON`): each feature
    /// and segment with its JSON text, unknown event types left out.
    init(_ document: StateDocument) {
        switch document {
        case .full(let features, let segments):
            self = .full(features: features.map(Feature.init), segments: segments.map(Segment.init))
        case .delta(let events):
            self = .delta(events.compactMap(Event.init))
        }
    }
}

extension UnleashStateDocument.Feature {
    init(_ definition: FeatureDefinition) {
        self.init(name: definition.name, json: definition.json ?? Data())
    }
}

extension UnleashStateDocument.Segment {
    init(_ definition: SegmentDefinition) {
        self.init(id: definition.id, json: definition.json ?? Data())
    }
}

extension UnleashStateDocument.Event {
    init?(_ event: DeltaEvent) {
        switch event {
        case .hydration(let features, let segments):
            self = .hydration(
                features: features.map(UnleashStateDocument.Feature.init),
                segments: segments.map(UnleashStateDocument.Segment.init))
        case .featureUpdated(let feature): self = .featureUpdated(UnleashStateDocument.Feature(feature))
        case .featureRemoved(let name): self = .featureRemoved(name)
        case .segmentUpdated(let segment): self = .segmentUpdated(UnleashStateDocument.Segment(segment))
        case .segmentRemoved(let id): self = .segmentRemoved(id)
        case .unknown: return nil
        }
    }
}
