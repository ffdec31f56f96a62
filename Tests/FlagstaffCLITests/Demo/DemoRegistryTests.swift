import Flagstaff
import Foundation
import Testing

@testable import FlagstaffCLI

/// The demo registry (`--demo`, and the default when no registry is announced): the guides' settings at the top
/// level, bound to their Firebase keys. In process.
@Suite("the demo registry")
struct DemoRegistryTests {
    @Test func theDemoDeclaresTheGuidesSettingsAtTheTopLevel() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["list", "--json"])
        #expect(result.status == 0, "\(result)")
        let members = try #require(try sandbox.jsonObject(result)["flags"] as? [[String: Any]])
        func member(_ key: String) throws -> [String: Any] {
            try #require(members.first { $0["key"] as? String == key }, "\(key) is missing")
        }
        let card = try member("cardColor")
        #expect(card["type"] as? String == "string")
        #expect(card["value"] as? String == "#f05138")
        #expect(card["default"] as? String == "#f05138")
        #expect(card["override"] is NSNull)
        #expect(card["group"] as? [String] == [])
        #expect((card["description"] as? String)?.isEmpty == false)
        let welcome = try member("welcomeMessage")
        #expect(welcome["type"] as? String == "string")
        #expect(welcome["value"] as? String == "Welcome to Moments")
        let maxItems = try member("maxItems")
        #expect(maxItems["type"] as? String == "integer")
        #expect(maxItems["value"] as? Int == 20)
        #expect(maxItems["range"] as? [String: Int] == ["lower": 1, "upper": 100])
        let theme = try member("theme")
        #expect(theme["type"] as? String == "choice")
        #expect(theme["value"] as? String == "system")
        #expect(theme["choices"] as? [String] == ["light", "dark", "system"])
        #expect(theme["requiresRestart"] as? Bool == true)
        let config = try member("appFeatureConfig")
        #expect(config["type"] as? String == "json")
        let value = try #require(config["value"] as? [String: Any])
        #expect(value["isNewFeatureEnabled"] as? Bool == false)
        #expect(value["maxUploadSize"] as? Int == 10_485_760)
        #expect(value["themeColors"] as? [String: String] == ["primary": "#f05138"])
        for key in ["cardColor", "welcomeMessage", "maxItems", "theme", "appFeatureConfig"] {
            #expect(try member(key)["description"] is String, "\(key) has no description")
        }
        // Flags keep their fields.
        let blue = try member("blueText")
        #expect(blue["type"] as? String == "boolean")
        #expect(blue["enabled"] as? Bool == false)
        #expect(blue["value"] as? Bool == false)
        #expect(blue["override"] as? String == "default")
    }

    @Test(arguments: [
        ("cardColor", "cardColor"), ("welcomeMessage", "welcome_message"), ("maxItems", "max_items"),
        ("appFeatureConfig", "app_feature_config"),
    ])
    func theDemosSettingsAreBoundToTheirFirebaseKeys(key: String, remoteKey: String) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["get", key, "--json"])
        #expect(result.status == 0, "\(result)")
        let chain = try #require(try sandbox.jsonObject(result)["chain"] as? [[String: Any]])
        #expect(chain.map { $0["source"] as? String } == ["override", "remote", "static"])
        #expect(chain[1]["detail"] as? String == "no remote value for \"\(remoteKey)\"")
        #expect(chain[1]["value"] is NSNull)
        #expect(chain[2]["decided"] as? Bool == true)
    }

    @Test func themeHasNoRemoteKey() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["get", "theme", "--json"])
        let chain = try #require(try sandbox.jsonObject(result)["chain"] as? [[String: Any]])
        #expect(chain.map { $0["source"] as? String } == ["override", "static"])
    }
}
