import Flagstaff
import FlagstaffServer
import FlagstaffServerBodies
import FlagstaffUnleash
import Foundation
import Testing

/// The protocol bodies, from a snapshot, without sockets.
@Suite struct ServedBodyTests {
    @Test("the frontend body lists the toggles that are on; settings carry their value as a typed payload")
    func frontendBody() throws {
        let registry = try ServedFixtures.registry()
        let body = try ServedFixtures.json(UnleashBodies.frontend(ServedSnapshot(registry: registry)))
        let toggles = try #require(body["toggles"] as? [[String: Any]])
        let names = toggles.compactMap { $0["name"] as? String }
        #expect(names == ["debugLogging", "cardColor", "maxItems", "ratio", "theme", "compact", "config"])
        let byName = Dictionary(uniqueKeysWithValues: toggles.map { ($0["name"] as? String ?? "", $0) })
        let debug = try #require(byName["debugLogging"]?["variant"] as? [String: Any])
        #expect(debug["name"] as? String == "disabled" && debug["enabled"] as? Bool == false)
        func payload(_ name: String) -> [String: String]? {
            ((byName[name]?["variant"] as? [String: Any])?["payload"]) as? [String: String]
        }
        #expect(payload("cardColor") == ["type": "string", "value": "#f05138"])
        #expect(payload("maxItems") == ["type": "number", "value": "20"])
        #expect(payload("ratio") == ["type": "number", "value": "2.0"])
        #expect(payload("theme") == ["type": "string", "value": "system"])
        #expect(payload("config") == ["type": "json", "value": #"{"columns":3,"title":"Hi"}"#])
        #expect((byName["cardColor"]?["variant"] as? [String: Any])?["name"] as? String == "default")
    }

    @Test("above the cache limit a body is rendered in pieces while sent, with the same bytes; below it, once")
    func largeSnapshotsStreamTheirBodies() throws {
        let registry = try ServedFixtures.registry()
        let small = ServedSnapshot(registry: registry)
        let large = ServedSnapshot(registry: registry, cachedBodyLimit: 2)
        let kinds: [(BodyKind, @Sendable (ServedSnapshot) -> BodyChunks)] = [
            (.frontend, UnleashBodies.frontendChunks), (.clientFeatures, UnleashBodies.clientFeatureChunks),
            (.ofrepBulk, { OFREPBodies.bulkChunks($0) }),
        ]
        for (kind, chunks) in kinds {
            let whole = small.reply(kind, ifNoneMatch: nil, chunks: chunks)
            #expect(whole.stream == nil && whole.buffer != nil)
            let streamed = large.reply(kind, ifNoneMatch: nil, chunks: chunks)
            #expect(streamed.stream != nil && streamed.buffer == nil && streamed.body.isEmpty)
            #expect(streamed.allBytes == whole.allBytes && streamed.etag == whole.etag)
            #expect(large.reply(kind, ifNoneMatch: large.etag, chunks: chunks).status == 304)
        }
        // Many members: several pieces, each ending where a member ends, together the body.
        let members = (0..<3_000).map { index in
            ServedFlag(
                Feature(
                    key: "group.flag\(index)", description: "Flag number \(index)",
                    default: index.isMultiple(of: 2)))
        }
        let snapshot = ServedSnapshot(flags: members, cachedBodyLimit: 0)
        let pieces = Array(UnleashBodies.clientFeatureChunks(snapshot))
        #expect(pieces.count > 1, "\(pieces.map(\.count))")
        #expect(pieces.dropLast().allSatisfy { $0.last == UInt8(ascii: "}") })
        let body = try ServedFixtures.json(Array(pieces.joined()))
        #expect((body["features"] as? [Any])?.count == 3_000)
    }

    @Test("a served member keeps its key, value, source's name, description and type")
    func servedMembersCopyTheRegistry() throws {
        let registry = try ServedFixtures.registry()
        try registry.setOverrideValues(["blueText": .set(.on), "maxItems": .set(OverrideValue(json: "42"))])
        var sources: Set<String> = []
        for member in registry.allFeatures {
            let served = ServedFlag(member)
            #expect(served.key == member.key && served.value == member.currentValue)
            #expect(served.source == member.explanation.source.displayName, "\(member.key)")
            #expect(served.description == member.description && served.type == member.settingType)
            sources.insert(served.source)
        }
        #expect(sources.isSuperset(of: ["override", "default"]), "\(sources)")
    }

    @Test("the frontend body follows overrides: a flag forced on appears, a boolean setting forced off goes")
    func frontendFollowsOverrides() throws {
        let registry = try ServedFixtures.registry()
        try registry.setOverrideValues(["blueText": .set(.on), "compact": .set(OverrideValue(json: "false"))])
        let body = try ServedFixtures.json(UnleashBodies.frontend(ServedSnapshot(registry: registry)))
        let names = (body["toggles"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains("blueText") && !names.contains("compact"))
    }

    @Test("the local Unleash engine evaluates the served client-API body to the registry's values")
    func clientFeaturesEvaluateToRegistryValues() throws {
        let registry = try ServedFixtures.registry()
        try registry.setOverrideValues([
            "blueText": .set(.on), "debugLogging": .set(.off), "maxItems": .set(OverrideValue(json: "42")),
            "cardColor": .set(OverrideValue(string: "#000000")),
        ])
        let snapshot = ServedSnapshot(registry: registry)
        let engine = UnleashEngine()
        try engine.takeState(Data(UnleashBodies.clientFeatures(snapshot)))
        for context in [UnleashContext(), UnleashContext(userId: "u-1")] {
            for member in registry.allFeatures {
                if member.settingType == .boolean {
                    let on = member.currentValue == .on || member.currentValue.json == "true"
                    #expect(engine.isEnabled(member.key, context: context) == on, "\(member.key)")
                } else {
                    let variant = engine.variant(member.key, context: context)
                    #expect(variant.enabled && variant.featureEnabled, "\(member.key)")
                    let text = try #require(variant.payload?.value)
                    #expect(try member.parse(text) == member.currentValue, "\(member.key): \(text)")
                }
            }
        }
    }

    @Test("OFREP evaluates each type with a reason, a variant and the source in the metadata")
    func ofrepSingle() throws {
        let registry = try ServedFixtures.registry()
        try registry.setOverrideValues(["maxItems": .set(OverrideValue(json: "7"))])
        let snapshot = ServedSnapshot(registry: registry)
        func evaluate(_ key: String) throws -> [String: Any] {
            let reply = OFREPBodies.evaluate(snapshot, key: key, body: Array("{}".utf8), requestedType: nil)
            #expect(reply.status == 200)
            return try ServedFixtures.json(reply.allBytes)
        }
        let blue = try evaluate("blueText")
        #expect(blue["value"] as? Bool == false && blue["variant"] as? String == "off")
        #expect(blue["reason"] as? String == "STATIC" && blue["key"] as? String == "blueText")
        let items = try evaluate("maxItems")
        #expect(items["value"] as? Int == 7 && items["variant"] as? String == "override")
        #expect((items["metadata"] as? [String: String])?["source"] == "override")
        let reply = OFREPBodies.evaluate(snapshot, key: "ratio", body: [], requestedType: nil)
        #expect(reply.text.contains(#""value":2.0,"#))
        let config = OFREPBodies.evaluate(snapshot, key: "config", body: [], requestedType: "object")
        #expect(config.text.contains(#""value":{"columns":3,"title":"Hi"},"#))
        #expect(try evaluate("compact")["value"] as? Bool == true)
        #expect(try evaluate("theme")["value"] as? String == "system")
    }

    @Test(
        "OFREP errors carry their code and status",
        arguments: [
            ("nothing", "{}", nil, 404, "FLAG_NOT_FOUND"),
            ("blueText", "{\"context\":", nil, 400, "PARSE_ERROR"),
            ("blueText", "[1]", nil, 400, "INVALID_CONTEXT"),
            ("blueText", #"{"context": 3}"#, nil, 400, "INVALID_CONTEXT"),
            ("blueText", #"{"context": {"targetingKey": 3}}"#, nil, 400, "INVALID_CONTEXT"),
            ("blueText", "{}", "string", 400, "TYPE_MISMATCH"),
            ("maxItems", "{}", "float", 200, nil),
            ("blueText", "{}", "bool", 400, "INVALID_CONTEXT"),
        ] as [(String, String, String?, Int, String?)])
    func ofrepErrors(key: String, body: String, type: String?, status: Int, code: String?) throws {
        let snapshot = ServedSnapshot(registry: try ServedFixtures.registry())
        let reply = OFREPBodies.evaluate(snapshot, key: key, body: Array(body.utf8), requestedType: type)
        #expect(reply.status == status)
        let json = try ServedFixtures.json(reply.allBytes)
        #expect(json["errorCode"] as? String == code)
        if code != nil {
            #expect(json["key"] as? String == key)
            #expect((json["errorDetails"] as? String)?.isEmpty == false)
        }
        if code == "TYPE_MISMATCH" {
            #expect(json["errorDetails"] as? String == #""blueText" is a boolean value, not a string"#)
        }
    }

    @Test func aTypeMismatchNamesBothTypesWithTheirArticle() throws {
        let snapshot = ServedSnapshot(registry: try ServedFixtures.registry())
        let reply = OFREPBodies.evaluate(snapshot, key: "maxItems", body: [], requestedType: "object")
        #expect(reply.status == 400)
        let json = try ServedFixtures.json(reply.allBytes)
        #expect(json["errorDetails"] as? String == #""maxItems" is an integer value, not an object"#)
    }

    @Test("bulk OFREP: every member, the snapshot's ETag, 304 when If-None-Match names it, 400 for a bad body")
    func ofrepBulk() throws {
        let snapshot = ServedSnapshot(registry: try ServedFixtures.registry())
        let reply = OFREPBodies.evaluateAll(snapshot, body: [], ifNoneMatch: nil)
        #expect(reply.status == 200 && reply.etag == snapshot.etag)
        let flags = try #require(try ServedFixtures.json(reply.allBytes)["flags"] as? [[String: Any]])
        #expect(flags.count == 8)
        let again = OFREPBodies.evaluateAll(snapshot, body: Array("{}".utf8), ifNoneMatch: "W/\(snapshot.etag)")
        #expect(again.status == 304 && again.body.isEmpty)
        #expect(OFREPBodies.evaluateAll(snapshot, body: Array("{".utf8), ifNoneMatch: nil).status == 400)
    }

    @Test("the ETag changes with any value and only then")
    func etagFollowsValues() throws {
        let registry = try ServedFixtures.registry()
        let first = ServedSnapshot(registry: registry).etag
        #expect(ServedSnapshot(registry: registry).etag == first)
        try registry.setOverrideValues(["ratio": .set(OverrideValue(json: "0.25"))])
        let second = ServedSnapshot(registry: registry).etag
        #expect(second != first)
        try registry.setOverrideValues(["ratio": .remove])
        #expect(ServedSnapshot(registry: registry).etag == first)
    }

    @Test("register and metrics bodies: appName, sdkVersion and per-toggle counts; bad ones are 400 with a message")
    func clientCalls() throws {
        let metrics = try UnleashClientCall(
            body: Array(
                #"{"appName":"ios","instanceId":"i","bucket":{"start":"x","stop":"y","toggles":{"blueText":{"yes":3,"no":1,"variants":{}}}}}"#
                    .utf8))
        #expect(metrics.appName == "ios" && metrics.counts == ["blueText": EvaluationCount(yes: 3, no: 1)])
        let register = try UnleashClientCall(
            body: Array(#"{"appName":"svc","sdkVersion":"unleash-python:6.9.1"}"#.utf8))
        #expect(register.sdkVersion == "unleash-python:6.9.1" && register.counts.isEmpty)
        for bad in ["{", "[]", #"{"bucket":3}"#, #"{"bucket":{"toggles":{"a":{"yes":-1}}}}"#] {
            #expect(throws: ServerReplyError.self) { try UnleashClientCall(body: Array(bad.utf8)) }
            do {
                _ = try UnleashClientCall(body: Array(bad.utf8))
            } catch {
                #expect(error.reply.status == 400 && error.reply.text.contains("\"error\""))
            }
        }
    }

    @Test("metrics counts of any size are whole numbers; sums stop at Int.max instead of overflowing")
    func hugeMetricsCounts() throws {
        func counts(_ toggles: String) throws -> EvaluationCount? {
            try UnleashClientCall(body: Array(#"{"bucket":{"toggles":{"t":\#(toggles)}}}"#.utf8)).counts["t"]
        }
        #expect(try counts(#"{"yes":9223372036854775807,"no":0}"#) == EvaluationCount(yes: .max, no: 0))
        #expect(try counts(#"{"yes":4611686018427387904,"no":1e300}"#) == EvaluationCount(yes: 1 << 62, no: .max))
        #expect(try counts(#"{"yes":12345678901234567}"#) == EvaluationCount(yes: 12_345_678_901_234_567))
        for bad in [#"{"yes":2.5}"#, #"{"no":-1}"#, #"{"yes":"3"}"#] {
            #expect(throws: ServerReplyError.self, "\(bad)") { try counts(bad) }
        }
        let tracker = ClientTracker()
        tracker.add(["t": EvaluationCount(yes: 1 << 62, no: .max)])
        tracker.add(["t": EvaluationCount(yes: 1 << 62, no: 5)])
        tracker.add(["t": EvaluationCount(yes: 1 << 62, no: 0)])
        #expect(tracker.evaluations(forKey: "t") == EvaluationCount(yes: .max, no: .max))
        #expect(tracker.evaluations(forKey: "t").total == .max)
    }

    @Test("the client tracker keeps at most maximumClients names, dropping the one seen longest ago")
    func clientTrackerIsBounded() {
        let clock = AnnotatedMutex(0.0)
        let tracker = ClientTracker(now: { Date(timeIntervalSince1970: clock.withLock { $0 }) })
        for index in 0..<ClientTracker.maximumClients {
            clock.withLock { $0 = Double(index) }
            tracker.record(name: "client\(index)", sdk: nil, call: .request)
        }
        clock.withLock { $0 = 5_000 }
        tracker.record(name: "client0", sdk: nil, call: .request)  // seen again: kept, and now the most recent
        #expect(tracker.clients.count == ClientTracker.maximumClients)
        tracker.record(name: "newcomer", sdk: nil, call: .request)
        let names = Set(tracker.clients.map(\.name))
        #expect(names.count == ClientTracker.maximumClients)
        #expect(names.contains("newcomer") && names.contains("client0") && !names.contains("client1"))
    }

    @Test("the client tracker counts calls per name, reports each name once and adds evaluation counts")
    func clientTracker() {
        let seen = AnnotatedMutex<[String]>([])
        let clock = AnnotatedMutex(Date(timeIntervalSince1970: 100))
        let tracker = ClientTracker(
            now: { clock.withLock { $0 } }, onFirstSeen: { client in seen.withLock { $0.append(client.name) } })
        tracker.record(name: "ios", sdk: nil, call: .request)
        clock.withLock { $0 = Date(timeIntervalSince1970: 200) }
        tracker.record(name: "ios", sdk: "unleash-client-swift:2", call: .metrics)
        tracker.record(name: "svc", sdk: nil, call: .register)
        tracker.add(["blueText": EvaluationCount(yes: 2, no: 0)])
        tracker.add(["blueText": EvaluationCount(yes: 1, no: 4)])
        #expect(seen.withLock { $0 } == ["ios", "svc"])
        let ios = tracker.clients.first { $0.name == "ios" }
        #expect(ios?.requests == 2 && ios?.metricsReports == 1 && ios?.sdk == "unleash-client-swift:2")
        #expect(ios?.firstSeen == Date(timeIntervalSince1970: 100) && ios?.lastSeen == Date(timeIntervalSince1970: 200))
        #expect(tracker.evaluations(forKey: "blueText") == EvaluationCount(yes: 3, no: 4))
    }

    @Test("binding beyond loopback needs a token; loopback addresses do not")
    func configurationValidation() throws {
        #expect(throws: FlagServerError.self) { try FlagServerConfiguration(host: "0.0.0.0").validate() }
        #expect(throws: FlagServerError.self) { try FlagServerConfiguration(host: "192.168.1.2").validate() }
        #expect(throws: FlagServerError.self) { try FlagServerConfiguration(port: 70000).validate() }
        #expect(throws: FlagServerError.self) { try FlagServerConfiguration(tokens: [""]).validate() }
        try FlagServerConfiguration(host: "0.0.0.0", tokens: ["secret"]).validate()
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            try FlagServerConfiguration(host: host).validate()
        }
    }
}
