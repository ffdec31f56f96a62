import FlagstaffRemote
import Foundation
import Testing

@Suite("RemoteConfig defaults and custom signals")
struct RemoteConfigDefaultsTests {
    private func makeConfig() -> RemoteConfig {
        RemoteConfig(provider: ScriptedProvider())
    }

    private func write(_ text: String, name: String) throws -> URL {
        let directory = makeTemporaryDirectory(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("defaults from a JSON file are stored like Firebase")
    func jsonFile() throws {
        let url = try write(
            #"{"isRoundedAvatar": true, "maxPhotos": 9, "ratio": 0.5, "title": "Hi", "list": [1, "a"], "obj": {"k": false}}"#,
            name: "defaults.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let config = makeConfig()
        try config.setDefaults(fromJSONFile: url)
        #expect(config["isRoundedAvatar"] == RemoteConfigValue(string: "1", source: .default))
        #expect(config["maxPhotos"].stringValue == "9")
        #expect(config["ratio"].stringValue == "0.5")
        #expect(config["title"].stringValue == "Hi")
        #expect(config["list"].stringValue == #"[1,"a"]"#)
        #expect(config["obj"].stringValue == #"{"k":false}"#)
        #expect(config.allKeys(from: .default) == ["isRoundedAvatar", "list", "maxPhotos", "obj", "ratio", "title"])
    }

    @Test("defaults from an XML property list")
    func propertyListFile() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>isRoundedAvatar</key><false/>
            <key>maxPhotos</key><integer>9</integer>
            <key>ratio</key><real>2.0</real>
            <key>title</key><string>Moments</string>
            <key>tags</key><array><string>a</string></array>
            </dict></plist>
            """
        let url = try write(plist, name: "defaults.plist")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let config = makeConfig()
        try config.setDefaults(fromPropertyListFile: url)
        #expect(config["isRoundedAvatar"].stringValue == "0")
        #expect(config["maxPhotos"].stringValue == "9")
        #expect(config["ratio"].stringValue == "2")
        #expect(config["title"].stringValue == "Moments")
        #expect(config["tags"].stringValue == #"["a"]"#)
    }

    @Test("bad defaults files give errors naming the file and what was expected")
    func badFiles() throws {
        let config = makeConfig()
        try config.setDefaults(["kept": "yes"])
        let notJSON = try write("{ nope", name: "broken.json")
        let array = try write("[1, 2]", name: "array.json")
        let nullValue = try write(#"{"a": null}"#, name: "null.json")
        let notPlist = try write("not a plist at all <", name: "broken.plist")
        defer {
            for url in [notJSON, array, nullValue, notPlist] {
                try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
            }
        }
        let cases: [(() throws(RemoteConfigError) -> Void, [String])] = [
            (
                { () throws(RemoteConfigError) in try config.setDefaults(fromJSONFile: notJSON) },
                ["broken.json", "not valid JSON"]
            ),
            (
                { () throws(RemoteConfigError) in try config.setDefaults(fromJSONFile: array) },
                ["array.json", "expected a JSON object", "an array"]
            ),
            (
                { () throws(RemoteConfigError) in try config.setDefaults(fromJSONFile: nullValue) },
                ["\"a\"", "unsupported type"]
            ),
            (
                { () throws(RemoteConfigError) in try config.setDefaults(fromPropertyListFile: notPlist) },
                ["broken.plist", "property list"]
            ),
            (
                { () throws(RemoteConfigError) in
                    try config.setDefaults(fromJSONFile: URL(fileURLWithPath: "/nonexistent/d.json"))
                },
                ["/nonexistent/d.json", "cannot read"]
            ),
        ]
        for (action, fragments) in cases {
            do {
                try action()
                Issue.record("expected an error containing \(fragments)")
            } catch {
                for fragment in fragments {
                    #expect(error.description.contains(fragment), "\(error.description) should mention \(fragment)")
                }
            }
        }
        #expect(config["kept"].stringValue == "yes", "failed loads keep the previous defaults")
    }

    @Test("custom signals: Firebase limits with clear errors; nil removes; sent with each fetch")
    func customSignals() async throws {
        let provider = ScriptedProvider()
        let config = RemoteConfig(provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0))
        try config.setCustomSignals(["tier": "gold", "age": 30, "score": 4.5, "whole": 2.0])
        #expect(config.customSignals == ["tier": "gold", "age": "30", "score": "4.5", "whole": "2"])
        try config.setCustomSignals(["age": nil])
        #expect(config.customSignals == ["tier": "gold", "score": "4.5", "whole": "2"])
        await config.fetch()
        #expect(provider.requests.last?.customSignals == ["tier": "gold", "score": "4.5", "whole": "2"])

        try config.setCustomSignals([String(repeating: "k", count: 250): .string(String(repeating: "v", count: 500))])
        let longKey = #expect(throws: RemoteConfigError.self) {
            try config.setCustomSignals([String(repeating: "k", count: 251): "x"])
        }
        #expect(longKey?.description.contains("at most 250") == true)
        let longValue = #expect(throws: RemoteConfigError.self) {
            try config.setCustomSignals(["bio": .string(String(repeating: "v", count: 501))])
        }
        #expect(longValue?.description.contains("\"bio\"") == true)
        #expect(longValue?.description.contains("at most 500") == true)
        #expect(throws: RemoteConfigError.self) { try config.setCustomSignals(["": "x"]) }
        #expect(throws: RemoteConfigError.self) { try config.setCustomSignals(["nan": .double(.nan)]) }

        var many: [String: RemoteConfigCustomSignal?] = [:]
        for index in 0..<96 { many["s\(index)"] = .integer(index) }
        try config.setCustomSignals(many)
        #expect(config.customSignals.count == 100)
        let tooMany = #expect(throws: RemoteConfigError.self) { try config.setCustomSignals(["one-more": 1]) }
        #expect(tooMany?.description.contains("at most 100") == true)
        #expect(config.customSignals.count == 100, "a rejected update changes nothing")
        try config.setCustomSignals(["s0": nil, "one-more": 1])
        #expect(config.customSignals["one-more"] == "1")
    }

    @Test("the property wrapper decodes with a fallback")
    func propertyWrapper() async throws {
        let provider = ScriptedProvider()
        provider.answer(entries: ["maxPhotos": "12", "layout": "grid", "broken": "2.5"])
        let config = RemoteConfig(provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0))
        try config.setDefaults(["maxPhotos": 9])
        struct Settings {
            @RemoteConfigProperty var maxPhotos: Int
            @RemoteConfigProperty var missing: String
            @RemoteConfigProperty var broken: Int
            init(config: RemoteConfig) {
                _maxPhotos = RemoteConfigProperty(key: "maxPhotos", fallback: 1, config: config)
                _missing = RemoteConfigProperty(key: "missing", fallback: "fallback", config: config)
                _broken = RemoteConfigProperty(key: "broken", fallback: -1, config: config)
            }
        }
        let settings = Settings(config: config)
        #expect(settings.maxPhotos == 9)
        #expect(settings.$maxPhotos.source == .default)
        await config.fetchAndActivate()
        #expect(settings.maxPhotos == 12)
        #expect(settings.missing == "fallback")
        #expect(settings.broken == -1, "2.5 does not fit Int, so the fallback is read")
    }

    /// A defaults file is read by the package's one reader: a repeated key is an error naming it.
    @Test("a defaults file that repeats a key is refused, naming the key")
    func repeatedKey() throws {
        let config = makeConfig()
        let url = try write(#"{"maxItems": 1, "maxItems": 2}"#, name: "repeated.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let error = #expect(throws: RemoteConfigError.self) { try config.setDefaults(fromJSONFile: url) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("repeated.json") && text.contains(#""maxItems" appears more than once"#), "\(text)")
    }
}
