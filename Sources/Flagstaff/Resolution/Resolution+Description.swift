import Foundation

/// Readable text for values printed by an app (`print(features.blueText.resolution)`), in the words of
/// `flagstaff get --explain`, instead of a dump of the enum or struct.
extension ResolutionSource: CustomStringConvertible {
    /// `override`, `default`, `dynamic`, `build target (debug)`, `remote (Firebase)`, `link (http://host:4242)`,
    /// `launch`, `test`.
    public var description: String {
        switch self {
        case .remote(let provider, _): "remote (\(provider))"
        case .link(let server): "link (\(server))"
        case .buildTarget(let target): "build target (\(target.rawValue))"
        default: displayName
        }
    }
}

extension OverrideState: CustomStringConvertible {
    /// `on`, `off` or `default` (``storageWord``).
    public var description: String { storageWord }
}

extension Resolution: CustomStringConvertible {
    /// `ON by override (override ON, default OFF)`: the value, the deciding source, and each source considered.
    public var description: String {
        let steps = chain.map { step in
            "\(step.source) \(step.value.map { $0 ? "ON" : "OFF" } ?? "—")"
        }
        return "\(value ? "ON" : "OFF") by \(source) (\(steps.joined(separator: ", ")))"
    }
}

extension ValueResolution: CustomStringConvertible {
    /// `50 by override (override 50, default 20)`: the value as JSON, the deciding source, each source considered.
    public var description: String {
        let steps = chain.map { step in "\(step.source) \(step.value?.json ?? "—")" }
        return "\(value.json) by \(source) (\(steps.joined(separator: ", ")))"
    }
}
