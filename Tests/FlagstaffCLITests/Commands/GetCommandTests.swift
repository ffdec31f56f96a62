import Foundation
import Testing

@Suite("flagstaff get")
struct GetCommandTests {
    @Test func printsOnOrOffForScripts() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["get", "debugLogging"]).standardOutput == "on\n")
        #expect(try await sandbox.runWithStore(["get", "blueText"]).standardOutput == "off\n")
        #expect(try await sandbox.runWithStore(["set", "blueText", "on"]).status == 0)
        let result = try await sandbox.runWithStore(["get", "blueText"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "on\n")
        #expect(result.standardError.isEmpty)
    }

    @Test func jsonCarriesTheResolutionChain() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "list.infiniteScroll", "on"]).status == 0)
        let object = try sandbox.jsonObject(try await sandbox.runWithStore(["get", "list.infiniteScroll", "--json"]))
        #expect(object["key"] as? String == "list.infiniteScroll")
        #expect(object["enabled"] as? Bool == true)
        #expect(object["source"] as? String == "override")
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.compactMap { $0["source"] as? String } == ["override", "static"])
        #expect(chain.compactMap { $0["decided"] as? Bool } == [true, false])
        #expect(chain[0]["value"] as? Bool == true)
        #expect(chain[1]["value"] as? Bool == false)

        let reset = try sandbox.jsonObject(try await sandbox.runWithStore(["get", "list.pullToRefresh", "--json"]))
        let resetChain = try #require(reset["chain"] as? [[String: Any]])
        #expect(resetChain[0]["value"] is NSNull, "no override offers no value")
        #expect(resetChain.compactMap { $0["decided"] as? Bool } == [false, true])
    }

    @Test func explainShowsEverySourceAndTheWinner() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "useTabBarNav", "on"]).status == 0)
        let result = try await sandbox.runWithStore(["get", "useTabBarNav", "--explain"])
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "useTabBarNav — Use Tab Bar Navigation")
        #expect(lines.contains("  value     ON by override"))
        #expect(lines.contains { $0.hasPrefix("  restart   required; pending: changed from OFF") })
        #expect(lines.contains { $0.hasPrefix("* override") && $0.hasSuffix("ON") })
        #expect(lines.contains { $0.hasPrefix("  default") && $0.hasSuffix("OFF") })
    }

    @Test func explainNamesTheBuildTarget() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["get", "diagnostics.internalMenu", "--explain"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("* build target ("))
        #expect(result.standardOutput.contains("on in debug, internal"))
    }
}
