import FlagstaffTestSupport
import Foundation

/// Builds evaluation contexts for one Unleash state, aimed at its edges: every constraint value of the state,
/// near misses of it (case, prefix, ±1, semver and date neighbours, nearby addresses) and random values.
///
/// Every context carries a `userId` or a `sessionId` (often both) and every field that a variant or a strategy
/// with variants uses for stickiness, because the reference engine picks at random without them.
struct DifferentialContextGenerator {
    /// Flag names the state defines, in state order (removed and updated ones from delta events included),
    /// plus one name the state does not know.
    private(set) var flags: [String] = []
    private var pools: [String: [String]] = [:]
    /// The values the state itself names, before near misses are added: picked often so that contexts which
    /// satisfy several constraints at once (segments, dependencies) are common too.
    private var exact: [String: [String]] = [:]
    private var stickinessFields: Set<String> = []
    private var generator: SeededRandom

    init(state: Any, seed: UInt64) {
        generator = SeededRandom(seed: seed)
        for feature in Self.features(in: state) { collect(feature: feature) }
        for segment in Self.segments(in: state) { collect(constraints: segment["constraints"]) }
        flags.append("flagstaff.differential.unknown")
        exact = pools.mapValues(Self.unique)
        for key in pools.keys { pools[key] = Self.unique(pools[key, default: []].flatMap(Self.neighbours)) }
        // UnleashContext holds currentTime as a Date, so only real timestamps are generated for it; the reference
        // would take any string there.
        pools["currentTime"] = pools["currentTime"]?.filter(Self.isTimestamp)
        exact["currentTime"] = exact["currentTime"]?.filter(Self.isTimestamp)
    }

    /// Returns `count` contexts in the specification's JSON shape.
    mutating func contexts(count: Int) -> [[String: Any]] {
        (0..<count).map { _ in context() }
    }

    private mutating func context() -> [String: Any] {
        var context: [String: Any] = [:]
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: context["userId"] = value(for: "userId")
        case 1: context["sessionId"] = value(for: "sessionId")
        default:
            context["userId"] = value(for: "userId")
            context["sessionId"] = value(for: "sessionId")
        }
        for field in ["environment", "appName", "remoteAddress", "currentTime"] where chance(0.6) {
            context[field] = value(for: field)
        }
        var properties: [String: Any] = [:]
        let builtIn: Set = ["userId", "sessionId", "environment", "appName", "remoteAddress", "currentTime"]
        for name in pools.keys.sorted() where !builtIn.contains(name) && chance(0.7) {
            properties[name] = value(for: name)
        }
        for field in stickinessFields.sorted() {
            if builtIn.contains(field) {
                if context[field] == nil { context[field] = value(for: field) }
            } else if properties[field] == nil {
                properties[field] = value(for: field)
            }
        }
        if !properties.isEmpty || chance(0.2) { context["properties"] = properties }
        return context
    }

    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    private mutating func value(for field: String) -> String {
        let named = exact[field, default: []]
        if !named.isEmpty, chance(0.4) { return named[Int.random(in: 0..<named.count, using: &generator)] }
        let pool = pools[field, default: []]
        if !pool.isEmpty, chance(0.75) { return pool[Int.random(in: 0..<pool.count, using: &generator)] }
        switch field {
        case "userId", "sessionId": return String(Int.random(in: 0..<1000, using: &generator))
        case "remoteAddress":
            if chance(0.2) {
                return
                    "2001:db8:\(Int.random(in: 0..<3, using: &generator))::\(Int.random(in: 1..<99, using: &generator))"
            }
            return (0..<4).map { _ in String(Int.random(in: 0..<256, using: &generator)) }.joined(separator: ".")
        case "currentTime":
            let seconds = Int.random(in: 1_640_000_000..<1_700_000_000, using: &generator)
            return Self.timestamp(Date(timeIntervalSince1970: TimeInterval(seconds)))
        default:
            let letters = Array("abcdefghijklmnopqrstuvwxyzABC0123456789-@.")
            return String(
                (0..<Int.random(in: 1..<12, using: &generator)).map { _ in
                    letters[Int.random(in: 0..<letters.count, using: &generator)]
                })
        }
    }

    // MARK: - Reading the state

    private static func features(in state: Any) -> [[String: Any]] {
        guard let object = state as? [String: Any] else { return [] }
        if let features = object["features"] as? [[String: Any]] { return features }
        var result: [[String: Any]] = []
        for event in object["events"] as? [[String: Any]] ?? [] {
            result += event["features"] as? [[String: Any]] ?? []
            if let feature = event["feature"] as? [String: Any] { result.append(feature) }
            if let name = event["featureName"] as? String { result.append(["name": name]) }
        }
        return result
    }

    private static func segments(in state: Any) -> [[String: Any]] {
        guard let object = state as? [String: Any] else { return [] }
        if let segments = object["segments"] as? [[String: Any]] { return segments }
        var result: [[String: Any]] = []
        for event in object["events"] as? [[String: Any]] ?? [] {
            result += event["segments"] as? [[String: Any]] ?? []
            if let segment = event["segment"] as? [String: Any] { result.append(segment) }
        }
        return result
    }

    private mutating func collect(feature: [String: Any]) {
        if let name = feature["name"] as? String, !flags.contains(name) { flags.append(name) }
        let variants = feature["variants"] as? [[String: Any]] ?? []
        if let stickiness = variants.first?["stickiness"] as? String { noteStickiness(stickiness) }
        for variant in variants {
            for override in variant["overrides"] as? [[String: Any]] ?? [] {
                if let field = override["contextName"] as? String {
                    pools[field, default: []] += override["values"] as? [String] ?? []
                }
            }
        }
        for strategy in feature["strategies"] as? [[String: Any]] ?? [] {
            let parameters = strategy["parameters"] as? [String: Any] ?? [:]
            if let strategyVariants = strategy["variants"] as? [[String: Any]], !strategyVariants.isEmpty {
                noteStickiness(parameters["stickiness"] as? String ?? "default")
            }
            if let ids = parameters["userIds"] as? String {
                pools["userId", default: []] += ids.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }
            if let ips = parameters["IPs"] as? String {
                pools["remoteAddress", default: []] += ips.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }
            if let stickiness = parameters["stickiness"] as? String, !["default", "random"].contains(stickiness) {
                pools[stickiness, default: []] += []
            }
            collect(constraints: strategy["constraints"])
        }
    }

    private mutating func noteStickiness(_ stickiness: String) {
        guard stickiness != "default", stickiness != "random" else { return }
        stickinessFields.insert(stickiness)
        pools[stickiness, default: []] += []
    }

    private mutating func collect(constraints: Any?) {
        for constraint in constraints as? [[String: Any]] ?? [] {
            guard let field = constraint["contextName"] as? String else { continue }
            var values = constraint["values"] as? [String] ?? []
            if let value = constraint["value"] as? String { values.append(value) }
            pools[field, default: []] += values
        }
    }

    // MARK: - Near misses

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    /// The value itself and values that sit just either side of it for every operator family.
    private static func neighbours(of value: String) -> [String] {
        var result = [
            value, value.uppercased(), value.lowercased(), "x" + value, value + "x", String(value.dropFirst()),
        ]
        if let number = Double(value) {
            result += [number - 1, number + 1, number + 0.5, number].map { String($0) }
            result += [String(Int(number)), "+" + value]
        }
        let parts = value.split(separator: "-", maxSplits: 1).first?.split(separator: ".") ?? []
        if parts.count == 3, parts.allSatisfy({ Int($0) != nil }) {
            let (major, minor, patch) = (Int(parts[0]) ?? 0, Int(parts[1]) ?? 0, Int(parts[2]) ?? 0)
            result += [
                "\(major).\(minor).\(patch + 1)", "\(major).\(minor).\(max(0, patch - 1))", "\(major + 1).0.0",
                "\(major).\(minor).\(patch)-alpha.1", "\(major).\(minor).\(patch)-beta",
                "\(major).\(minor).\(patch)-rc.2",
                "v\(major).\(minor).\(patch)", "\(major).\(minor)",
            ]
        }
        if let date = parseDate(value) {
            for offset in [-86_400.0, -3_600, -1, 0, 1, 3_600, 86_400] {
                result.append(timestamp(date.addingTimeInterval(offset)))
            }
            result.append(timestamp(date, offset: "+02:00"))
        }
        if let range = value.range(of: "/") { result.append(String(value[..<range.lowerBound])) }
        let octets = value.split(separator: ".")
        if octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) {
            let prefix = octets.dropLast().joined(separator: ".")
            result += ["\(prefix).1", "\(prefix).254", "\(prefix).\((UInt8(octets[3]) ?? 0) &+ 1)"]
        }
        if value.contains("::") { result += [value + "1", value.replacingOccurrences(of: "::", with: ":1::")] }
        return result
    }

    /// Whether `text` is an RFC 3339 date-time, strictly (the date formatter alone lets trailing junk through).
    private static func isTimestamp(_ text: String) -> Bool {
        text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/) != nil && parseDate(text) != nil
    }

    private static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// RFC 3339 with milliseconds, in UTC (`Z`) or at a fixed offset such as `+02:00`.
    static func timestamp(_ date: Date, offset: String = "Z") -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if offset != "Z", let zone = TimeZone(identifier: "GMT" + offset.replacingOccurrences(of: ":", with: "")) {
            formatter.timeZone = zone
        }
        return formatter.string(from: date)
    }
}
