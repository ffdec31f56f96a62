import Flagstaff
import FlagstaffUnleash
import Foundation

/// The Unleash engine's readers: its regular expression compiler and the client-features body.
extension FuzzTarget {
    /// ``RegexPattern``: the input's first byte chooses case-insensitivity (its low bit); the rest up to the first
    /// NUL is the pattern, after it the text searched.
    static let unleashRegex = FuzzTarget(
        name: "unleash-regex",
        summary: "Unleash regex compiler (RegexPattern.compile) and matcher"
    ) { data in
        guard let flags = data.first else { return }
        let rest = data.dropFirst()
        let cut = rest.firstIndex(of: 0) ?? rest.endIndex
        let pattern = FuzzCheck.text(Data(rest[..<cut]))
        let subject = cut < rest.endIndex ? FuzzCheck.text(Data(rest[(cut + 1)...])) : pattern
        let program: RegexProgram
        do {
            program = try RegexPattern.compile(pattern, caseInsensitive: flags & 1 == 1)
        } catch {
            FuzzCheck.described(error, as: RegexPattern.Rejection.self, by: "RegexPattern.compile")
            return
        }
        for text in [subject, "", pattern, "a\nB\u{212A}ß 09_-"] { _ = program.matches(text) }
    }

    /// ``UnleashEngine/takeState(_:)`` with a client-features or delta body, then every feature evaluated.
    static let unleashFeatures = FuzzTarget(
        name: "unleash-features",
        summary: "Unleash client-features/delta reader (UnleashEngine.takeState); every feature evaluated"
    ) { data in
        let engine = UnleashEngine(hostname: "fuzz-host")
        do {
            try engine.takeState(data)
        } catch {
            FuzzCheck.described(error, as: UnleashStateError.self, by: "UnleashEngine.takeState")
            return
        }
        // The same body again: a delta applies to the state the first one left.
        try? engine.takeState(data)
        for name in featureNames(data) {
            for context in contexts {
                _ = engine.isEnabled(name, context: context)
                _ = engine.variant(name, context: context)
                _ = engine.evaluate(name, context: context)
            }
            _ = engine.feature(named: name)
        }
    }

    /// Contexts that reach every kind of constraint: dates, versions, numbers, addresses, custom fields.
    private static let contexts = [
        UnleashContext(),
        UnleashContext(
            userId: "42", sessionId: "s-1", remoteAddress: "10.1.2.3", currentTime: Date(timeIntervalSince1970: 1.7e9),
            environment: "production", appName: "fuzz",
            properties: ["version": "1.2.3-beta.1", "count": "17.5", "region": "eu", "when": "2024-02-29T12:00:00Z"]),
        UnleashContext(
            userId: "", remoteAddress: "2001:db8::1", currentTime: Date(timeIntervalSince1970: -1e10),
            properties: ["version": "x", "count": "-1e308", "region": "\u{212A}"]),
    ]

    /// The names of the features in a body (of both shapes), however deep they are.
    private static func featureNames(_ data: Data) -> [String] {
        guard let root = (try? JSONValue.readFoundation(data)) as? [String: Any] else { return [] }
        var names: [String] = []
        func collect(_ features: Any?) {
            for feature in features as? [Any] ?? [] {
                if let name = (feature as? [String: Any])?["name"] as? String { names.append(name) }
            }
        }
        collect(root["features"])
        for event in root["events"] as? [Any] ?? [] {
            guard let event = event as? [String: Any] else { continue }
            collect(event["features"])
            collect(event["feature"].map { [$0] })
            if let name = event["featureName"] as? String { names.append(name) }
        }
        return names.isEmpty ? ["a"] : names
    }
}

/// The Unleash clients' other readers: the frontend API's toggles (bootstrap, answers, snapshots) and a context.
extension FuzzTarget {
    /// ``UnleashBootstrap/json(_:source:)`` (the frontend answer's reader) and ``UnleashContext/decode(json:)``:
    /// toggles written back in the frontend API's shape read back equal; a context written by its encoder reads
    /// back equal after one round (times to the millisecond).
    static let unleashClient = FuzzTarget(
        name: "unleash-client",
        summary: "Unleash frontend toggles (UnleashBootstrap.json) and context (UnleashContext.decode)"
    ) { data in
        do {
            let toggles = try UnleashBootstrap.json(data).toggles
            let written: Data
            do { written = try JSONEncoder().encode(["toggles": toggles]) } catch {
                FuzzCheck.fail("cannot encode toggles that were read: \(error)")
            }
            do {
                FuzzCheck.equal(try UnleashBootstrap.json(written).toggles, toggles, "toggles written and read back")
            } catch {
                FuzzCheck.fail("toggles written do not read back: \(error)\n\(FuzzCheck.text(written))")
            }
        } catch {
            FuzzCheck.described(error, as: UnleashClientError.self, by: "UnleashBootstrap.json")
        }
        do {
            let context = try UnleashContext.decode(json: data)
            func roundTrip(_ context: UnleashContext) -> UnleashContext {
                do {
                    return try UnleashContext.decode(json: JSONEncoder().encode(context))
                } catch {
                    FuzzCheck.fail("a context written does not read back: \(error)")
                }
            }
            let once = roundTrip(context)
            FuzzCheck.equal(roundTrip(once), once, "context written and read back")
            FuzzCheck.equal(once.properties, context.properties, "context properties written and read back")
        } catch {
            FuzzCheck.described(error, as: UnleashContextError.self, by: "UnleashContext.decode")
        }
    }
}
