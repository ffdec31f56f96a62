import Foundation

@testable import FlagstaffUnleash

/// Builders for small states in tests.
enum TestState {
    static func body(features: [[String: Any]], segments: [[String: Any]] = []) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["version": 2, "features": features, "segments": segments])
    }

    static func feature(
        _ name: String, enabled: Bool = true, strategies: [[String: Any]] = [["name": "default"]],
        extra: [String: Any] = [:]
    ) -> [String: Any] {
        var feature: [String: Any] = ["name": name, "enabled": enabled, "strategies": strategies]
        feature.merge(extra) { $1 }
        return feature
    }

    static func constraint(
        _ contextName: String, _ op: String, values: [String]? = nil, value: String? = nil, inverted: Bool = false,
        caseInsensitive: Bool = false
    ) -> [String: Any] {
        var constraint: [String: Any] = [
            "contextName": contextName, "operator": op, "inverted": inverted, "caseInsensitive": caseInsensitive,
        ]
        if let values { constraint["values"] = values }
        if let value { constraint["value"] = value }
        return constraint
    }

    /// A feature with one `default` strategy guarded by `constraints`.
    static func guarded(_ name: String, _ constraints: [[String: Any]]) -> [String: Any] {
        feature(name, strategies: [["name": "default", "constraints": constraints]])
    }

    static func engine(_ features: [[String: Any]], segments: [[String: Any]] = [], hostname: String? = nil) throws
        -> UnleashEngine
    {
        let engine = UnleashEngine(hostname: hostname)
        try engine.takeState(body(features: features, segments: segments))
        return engine
    }

    static func properties(_ values: [String: String]) -> UnleashContext { UnleashContext(properties: values) }
}
