import FlagstaffTestSupport
import Foundation
import Testing

/// Typed settings in the real `flagstaff console` (the demo registry) in tmux: inline editing, cancelling,
/// invalid input, the `$EDITOR` round trip and the restart prompt with a typed change.
@Suite(.serialized) struct ConsoleSettingEndToEndTests {
    /// The store's entries as JSON objects (empty when the file does not exist).
    func storedValues(_ harness: ConsoleHarness) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: harness.store.path) else { return [:] }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: harness.store)) as? [String: Any]
        return object?["overrides"] as? [String: Any] ?? [:]
    }

    /// Polls the store until `predicate` holds.
    func waitForStore(_ harness: ConsoleHarness, _ predicate: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var values: [String: Any] = [:]
        _ = try await poll(timeout: .seconds(5)) { () throws -> Bool? in
            values = try storedValues(harness)
            return predicate(values) ? true : nil
        }
        return values
    }

    /// Searches for `text` and keeps the filter: the best match is selected.
    func select(_ text: String, in harness: ConsoleHarness) async throws {
        try harness.session.sendKeys("/")
        try harness.session.type(text)
        try harness.session.sendKeys("Enter")
        try await harness.session.waitFor("\(text) selected") {
            $0.selectedLine?.lowercased().hasPrefix(text.lowercased()) == true && $0.contains("e edit")
        }
    }

    @Test func editingInlineRefusesInvalidInputAndStoresAValidValue() async throws {
        let harness = try ConsoleHarness(demo: true)
        try await harness.waitForConsole()
        try await select("Max Items", in: harness)
        try harness.session.sendKeys("Enter")
        try await harness.session.waitFor("the editor prefilled") { $0.contains("Max Items: 20") }
        try harness.session.sendKeys("C-u")
        try harness.session.type("500")
        var screen = try await harness.session.waitFor("the reason") { $0.contains("500  ✗ must be 1…100") }
        try harness.session.sendKeys("Enter")  // refused: the editor stays, nothing is written
        screen = try await harness.session.waitFor("still editing") { $0.contains("500  ✗ must be 1…100") }
        #expect(try storedValues(harness)["maxItems"] == nil)
        try harness.session.sendKeys("BSpace", "BSpace", "BSpace")
        try harness.session.type("50")
        try await harness.session.waitFor("valid") { $0.contains("Max Items: 50") && $0.contains("Enter save") }
        try harness.session.sendKeys("Enter")
        let stored = try await waitForStore(harness) { ($0["maxItems"] as? Int) == 50 }
        #expect(stored["maxItems"] as? Int == 50)
        screen = try await harness.session.waitFor("the row shows the override") {
            $0.selectedLine?.contains("50") == true && $0.selectedLine?.contains("override") == true
        }
        #expect(screen.contains("type integer 1…100 · overridden 50"))
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func escapeCancelsTheEditorAndWritesNothing() async throws {
        let harness = try ConsoleHarness(demo: true)
        try await harness.waitForConsole()
        try await select("Welcome Message", in: harness)
        try harness.session.sendKeys("e")
        try await harness.session.waitFor("the editor") { $0.contains("Welcome Message: Welcome to Moments") }
        try harness.session.sendKeys("C-w", "C-w")
        try harness.session.type("Hi")
        try await harness.session.waitFor("edited") { $0.contains("Welcome Message: Welcome Hi") }
        try harness.session.sendKeys("Escape")
        try await harness.session.waitFor("cancelled") { $0.contains("Edit cancelled: Welcome Message unchanged") }
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
        #expect(try storedValues(harness)["welcomeMessage"] == nil)
    }

    @Test func theExternalEditorRoundTripRefusesInvalidJSONAndStoresValidJSON() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flagstaff-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // First run: keeps what it was given and writes JSON of the wrong shape; second run: valid JSON.
        let script = folder.appendingPathComponent("editor.sh")
        try """
        #!/bin/sh
        if [ ! -e '\(folder.path)/first' ]; then
          cp "$1" '\(folder.path)/first'
          printf '{"isNewFeatureEnabled": "yes"}' > "$1"
        else
          printf '{"isNewFeatureEnabled": true, "maxUploadSize": 42, "themeColors": {}}' > "$1"
        fi
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let harness = try ConsoleHarness(environment: ["EDITOR": script.path, "VISUAL": ""], demo: true)
        try await harness.waitForConsole()
        try await select("App Feature Config", in: harness)
        try harness.session.sendKeys("e")
        var screen = try await harness.session.waitFor("the invalid result shown") {
            $0.contains("Not saved: App Feature Config") && $0.contains("e edit again")
        }
        #expect(screen.contains("App Feature Config"), "the screen is drawn again after the editor")
        let given = try String(contentsOf: folder.appendingPathComponent("first"), encoding: .utf8)
        #expect(given.contains("\"maxUploadSize\" : 10485760"), "pretty-printed JSON: \(given)")
        #expect(try storedValues(harness)["appFeatureConfig"] == nil, "never stored")
        try harness.session.sendKeys("e")
        let stored = try await waitForStore(harness) { $0["appFeatureConfig"] != nil }
        let config = try #require(stored["appFeatureConfig"] as? [String: Any])
        #expect(config["maxUploadSize"] as? Int == 42)
        screen = try await harness.session.waitFor("the detail pane shows the new JSON") {
            $0.contains("effective {\"isNewFeatureEnabled\":true,\"maxUploadSize\":42,")
                && $0.selectedLine?.contains("override") == true
        }
        try harness.session.sendKeys("q")
        let exit = try await harness.waitForExit()
        #expect(exit.status == 0 && exit.sttyUnchanged)
    }

    @Test func theRestartPromptListsATypedChangeWithOldAndNewValues() async throws {
        let harness = try ConsoleHarness(demo: true)
        try await harness.waitForConsole()
        try await select("Theme", in: harness)
        try harness.session.sendKeys("Space")
        try await harness.session.waitFor("light") { $0.selectedLine?.contains("light") == true }
        try harness.session.sendKeys("q")
        try await harness.session.waitFor("the restart prompt") { $0.contains("⟳ Theme  system → light") }
        try harness.session.sendKeys("l")
        let exit = try await harness.waitForExit()
        #expect(exit.status == 3)
        let screen = try harness.session.capture()
        #expect(screen.contains("restart the app to apply: theme (system → light)"), "\(screen.text)")
        #expect(try storedValues(harness)["theme"] as? String == "light")
    }
}
