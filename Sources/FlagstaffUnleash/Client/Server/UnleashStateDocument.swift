import Foundation

/// A client-API body as the server-side client keeps it beside the engine: each feature's and segment's JSON
/// (keys sorted), so the client can tell which features an answer changed and persist the whole state after a
/// delta. Read only after the engine accepted the body, so its shape is known to be valid.
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

    /// Reads a body the engine has accepted; parts it cannot read are skipped (the engine ignored them too).
    static func read(_ data: Data) -> UnleashStateDocument {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .full(features: [], segments: [])
        }
        if let events = object["events"] as? [[String: Any]] {
            return .delta(events.compactMap(event))
        }
        return .full(features: features(object["features"]), segments: segments(object["segments"]))
    }

    private static func event(_ object: [String: Any]) -> Event? {
        switch object["type"] as? String {
        case "hydration":
            return .hydration(features: features(object["features"]), segments: segments(object["segments"]))
        case "feature-updated":
            return (object["feature"] as? [String: Any]).flatMap(feature).map(Event.featureUpdated)
        case "feature-removed":
            return (object["featureName"] as? String).map(Event.featureRemoved)
        case "segment-updated":
            return (object["segment"] as? [String: Any]).flatMap(segment).map(Event.segmentUpdated)
        case "segment-removed":
            return (object["segmentId"] as? Int).map(Event.segmentRemoved)
        default:
            return nil
        }
    }

    private static func features(_ value: Any?) -> [Feature] {
        ((value as? [[String: Any]]) ?? []).compactMap(feature)
    }

    private static func segments(_ value: Any?) -> [Segment] {
        ((value as? [[String: Any]]) ?? []).compactMap(segment)
    }

    private static func feature(_ object: [String: Any]) -> Feature? {
        guard let name = object["name"] as? String, let json = canonical(object) else { return nil }
        return Feature(name: name, json: json)
    }

    private static func segment(_ object: [String: Any]) -> Segment? {
        guard let id = object["id"] as? Int, let json = canonical(object) else { return nil }
        return Segment(id: id, json: json)
    }

    private static func canonical(_ object: [String: Any]) -> Data? {
        try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
