import Flagstaff

/// The bodies of the Unleash APIs, rendered from a snapshot.
///
/// Every value is served to every context: on/off members are toggles that are on or off, typed settings are
/// toggles that are on with one variant carrying the value as its payload (`string`, `number` or `json`).
package enum UnleashBodies {
    /// The variant name of a typed setting: the source of its value (`override`, `remote`, `default`, …).
    package static func variantName(_ flag: ServedFlag) -> String {
        flag.source.replacingOccurrences(of: " ", with: "-")
    }

    /// `GET /api/frontend`: `{"toggles":[…]}` with the toggles that are on, as the frontend API answers.
    package static func frontend(_ snapshot: ServedSnapshot) -> [UInt8] { frontendChunks(snapshot).bytes }

    /// The frontend body in pieces (see ``frontend(_:)``).
    package static func frontendChunks(_ snapshot: ServedSnapshot) -> BodyChunks {
        BodyChunks(snapshot: snapshot, head: "{\"toggles\":[", tail: "]}") { flag, first, json in
            guard !flag.isBoolean || flag.booleanValue else { return false }
            json.raw(first ? "{" : ",{")
            json.member("name", first: true)
            json.string(flag.key)
            json.raw(",\"enabled\":true,\"variant\":{")
            if flag.isBoolean {
                json.raw("\"name\":\"disabled\",\"enabled\":false,\"feature_enabled\":true}")
            } else {
                json.member("name", first: true)
                json.string(variantName(flag))
                json.raw(",\"enabled\":true,\"feature_enabled\":true,")
                payload(flag, &json)
                json.raw("}")
            }
            json.raw(",\"impressionData\":false}")
            return true
        }
    }

    /// `GET /api/client/features`: a v2 features body. Each member is a `release` toggle with the `default`
    /// strategy; an on/off member is `enabled` when on; a typed setting is enabled and has one variant (weight
    /// 1000) whose payload is the value.
    package static func clientFeatures(_ snapshot: ServedSnapshot) -> [UInt8] { clientFeatureChunks(snapshot).bytes }

    /// The client features body in pieces (see ``clientFeatures(_:)``).
    package static func clientFeatureChunks(_ snapshot: ServedSnapshot) -> BodyChunks {
        BodyChunks(
            snapshot: snapshot, head: "{\"version\":2,\"features\":[",
            tail: "],\"segments\":[],\"query\":{\"inlineSegmentConstraints\":true}}"
        ) { flag, first, json in
            if !first { json.raw(",") }
            clientFeature(flag, &json)
            return true
        }
    }

    /// One toggle of the client API, as in ``clientFeatures(_:)`` (also the `feature` of a delta event).
    static func clientFeature(_ flag: ServedFlag, _ json: inout JSONBodyWriter) {
        json.raw("{")
        json.member("name", first: true)
        json.string(flag.key)
        if let description = flag.description {
            json.member("description")
            json.string(description)
        }
        json.raw(",\"type\":\"release\",\"project\":\"default\",\"stale\":false,\"impressionData\":false")
        json.member("enabled")
        json.raw(!flag.isBoolean || flag.booleanValue ? "true" : "false")
        json.raw(",\"strategies\":[{\"name\":\"default\",\"parameters\":{},\"constraints\":[]}]")
        json.member("variants")
        if flag.isBoolean {
            json.raw("[]")
        } else {
            json.raw("[{")
            json.member("name", first: true)
            json.string(variantName(flag))
            json.raw(",\"weight\":1000,\"weightType\":\"variable\",\"stickiness\":\"default\",")
            payload(flag, &json)
            json.raw(",\"overrides\":[]}]")
        }
        json.raw("}")
    }

    private static func payload(_ flag: ServedFlag, _ json: inout JSONBodyWriter) {
        json.raw("\"payload\":{")
        json.member("type", first: true)
        json.string(flag.payloadType)
        json.member("value")
        json.string(flag.payloadText)
        json.raw("}")
    }
}
