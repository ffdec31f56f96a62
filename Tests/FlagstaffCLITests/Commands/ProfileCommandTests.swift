import Flagstaff
import Foundation
import Testing

@Suite("flagstaff profile")
struct ProfileCommandTests {
    var folderName: String { "overrides.profiles" }

    @Test func saveListShowDiffApplyAndDelete() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "list.infiniteScroll", "on"]).status == 0)
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        let save = try await sandbox.run(["profile", "save", "lists", "--match", "list.*"])
        #expect(save.status == 0, "\(save)")
        let file = sandbox.directory.appendingPathComponent("\(folderName)/lists.json")
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(saved["overrides"] as? [String: String] == ["list.infiniteScroll": "on"])

        let list = try await sandbox.run(["profile", "list", "--json"])
        let profiles = try #require(try sandbox.jsonObject(list)["profiles"] as? [[String: Any]])
        #expect(profiles.first?["name"] as? String == "lists" && profiles.first?["entries"] as? Int == 1)

        #expect(try await sandbox.run(["reset", "list.infiniteScroll"]).status == 0)
        let diff = try await sandbox.run(["profile", "diff", "lists"])
        #expect(diff.standardOutput == "list.infiniteScroll: default → on\n", "\(diff)")
        let replaceDiff = try await sandbox.run(["profile", "diff", "lists", "--replace"])
        #expect(replaceDiff.standardOutput.contains("blueText: on → default"), "\(replaceDiff)")

        let apply = try await sandbox.run(["profile", "apply", "lists", "--replace"])
        #expect(apply.status == 0, "\(apply)")
        #expect(try sandbox.storedOverrides() == ["list.infiniteScroll": "on"])
        let undo = try await sandbox.run(["undo"])
        #expect(undo.status == 0 && undo.standardOutput.contains("the profile change"), "\(undo)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"], "the apply was one undo step")

        #expect(try await sandbox.run(["profile", "delete", "lists"]).status == 0)
        let missing = try await sandbox.run(["profile", "show", "lists"])
        #expect(missing.status == 1 && missing.standardError.contains("no profile named lists"), "\(missing)")
    }

    @Test func badNamesAreUsageErrorsAndNothingOutsideTheFolderIsTouched() async throws {
        let sandbox = try CLISandbox()
        for name in ["../overrides", "a/b", ".hidden", ""] {
            let result = try await sandbox.run(["profile", "save", name])
            #expect(result.status == 2, "\(name): \(result)")
            #expect(result.standardError.contains("invalid profile name"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent(folderName).path))
    }

    @Test func unknownKeysAreReportedAndKeptAndBadProfilesNameTheirJSONPath() async throws {
        let sandbox = try CLISandbox()
        let folder = sandbox.directory.appendingPathComponent(folderName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"version":1,"overrides":{"blueText":"on","gone.flag":"off"}}"#.utf8)
            .write(to: folder.appendingPathComponent("mixed.json"))
        try Data(#"{"version":1,"overrides":["blueText"]}"#.utf8)
            .write(to: folder.appendingPathComponent("broken.json"))
        let apply = try await sandbox.run(["profile", "apply", "mixed", "--json"])
        #expect(apply.status == 0, "\(apply)")
        #expect(try sandbox.jsonObject(apply)["unknownKeys"] as? [String] == ["gone.flag"])
        #expect(apply.standardError.contains("does not declare (kept): gone.flag"), "\(apply)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on", "gone.flag": "off"])

        let broken = try await sandbox.run(["profile", "apply", "broken"])
        #expect(broken.status == 1)
        #expect(broken.standardError.contains("broken.json: $.overrides: expected an object"), "\(broken)")
        let list = try await sandbox.run(["profile", "list"])
        #expect(list.status == 0 && list.standardOutput.contains("broken  unreadable"), "\(list)")
    }
}
