import Foundation
import Testing

/// A corrupt launch snapshot (`<store>.launch.json`) is reported in plain words and replaced by every
/// command that opens the store; `import` notes restart-requiring changes like `set`. In process.
@Suite("launch snapshot")
struct LaunchSnapshotTests {
    static let commands: [[String]] = [
        ["list"], ["list", "--json"], ["get", "blueText"], ["get", "blueText", "--explain"], ["set", "blueText", "on"],
        ["reset", "blueText"], ["export"], ["import", "IMPORT"], ["pending-restart"],
    ]

    static let corrupt: [(text: String, reason: String)] = [
        ("", "it is empty"),
        ("{not json", "it is not valid JSON"),
        (#"{"version":1,"values":["useTabBarNav"]}"#, "it is JSON but not a launch snapshot"),
        (#"{"version":"1","values":{}}"#, "it is JSON but not a launch snapshot"),
        ("[]", "it is JSON but not a launch snapshot"),
    ]

    @Test(arguments: commands)
    func aCorruptSnapshotIsReportedAndReplacedByEveryCommand(command: [String]) async throws {
        let sandbox = try CLISandbox()
        let importFile = try sandbox.write("import.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let snapshot = sandbox.directory.appendingPathComponent("overrides.json.launch.json")
        for corrupt in Self.corrupt {
            try Data(corrupt.text.utf8).write(to: snapshot)
            let result = try await sandbox.runWithStore(command.map { $0 == "IMPORT" ? importFile : $0 })
            #expect(result.status == 0, "\(corrupt.text): \(result)")
            #expect(
                result.standardError.contains(
                    "flagstaff: note: the launch snapshot \(snapshot.path) was corrupt (\(corrupt.reason)"),
                "\(result)")
            #expect(result.standardError.contains("replaced it with the values without overrides"), "\(result)")
            #expect(!result.standardError.contains("DecodingError"), "\(result)")
            let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: snapshot)) as? [String: Any]
            #expect(object?["version"] as? Int == 1)
            let values = object?["values"] as? [String: Any]
            #expect(values?["useTabBarNav"] as? Bool == false, "\(String(describing: object))")
            #expect(values?["theme"] as? String == "system", "\(String(describing: object))")
        }
    }

    @Test func importNotesRestartRequiringChangesLikeSet() async throws {
        let sandbox = try CLISandbox()
        let set = try await sandbox.runWithStore(["set", "useTabBarNav", "on"])
        #expect(set.standardError.contains("useTabBarNav requires a restart of the app to take effect"))
        let file = try sandbox.write("import.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let replace = try await sandbox.runWithStore(["import", "--replace", file])
        #expect(replace.status == 0, "\(replace)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"])
        #expect(
            replace.standardError.contains(
                "flagstaff: note: useTabBarNav requires a restart of the app to take effect"),
            "\(replace)")
        // A merge that changes no restart-requiring flag says nothing about restarts.
        let merge = try await sandbox.runWithStore(["import", file])
        #expect(!merge.standardError.contains("restart"), "\(merge)")
    }
}
