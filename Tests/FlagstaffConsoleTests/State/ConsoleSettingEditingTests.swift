import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffConsole

/// Editing typed settings: the inline editor, enum cycling and the picker, the external editor, resets, and
/// the hints of `o`/`x`/`Space` on typed rows.
@Suite struct ConsoleSettingEditingTests {
    @Test func enterOpensTheInlineEditorPrefilledAndEnterCommitsThroughTheWritePath() throws {
        var (features, state) = typedState(row: TypedRow.maxItems)
        #expect(press(.enter, into: &state).isEmpty)
        #expect(state.mode.kind == .edit)
        #expect(state.editor?.text == "20")
        #expect(state.editor?.cursor == 2)
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 29).hasPrefix(" Max Items: 20"), "\(screen.text(row: 29))")
        #expect(screen.cell(row: 29, column: 14).reverse, "the cursor after the text")
        press(.backspace, into: &state)
        type("5", into: &state)
        let effects = try pressAndApply(.enter, into: &state)
        #expect(effects == [.write(.values(["maxItems": .set(try OverrideValue(json: "25"))]))])
        #expect(state.pendingWrites.isEmpty, "saved at once (the store's lock is free)")
        #expect(state.mode.kind == .list && state.editor == nil)
        #expect(features.maxItems.value == 25)
        screen = ConsoleLayout.render(state)
        #expect(
            screen.text(row: screen.row(containing: "Max Items")).contains(" 25 ")
                && screen.cells(of: "25").allSatisfy(\.underline))
    }

    @Test func invalidTextIsRefusedAsYouTypeWithTheReasonAndNeverStored() throws {
        var (features, state) = typedState(row: TypedRow.maxItems)
        press(.character("e"), .control("u"), into: &state)
        type("500", into: &state)
        #expect(state.editor?.problem == "must be 1…100")
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 29).contains("500  ✗ must be 1…100"), "\(screen.text(row: 29))")
        #expect(try pressAndApply(.enter, into: &state).isEmpty, "Enter writes nothing while the value is invalid")
        #expect(state.mode.kind == .edit)
        type("x", into: &state)
        #expect(state.editor?.problem?.isEmpty == false)
        press(.control("u"), into: &state)
        type("7", into: &state)
        #expect(state.editor?.problem == nil)
        screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 29).contains("Enter save  Esc cancel"))
        #expect(features.maxItems.overriddenValue == nil)
    }

    @Test func escapeCancelsAndWritesNothing() throws {
        var (features, state) = typedState(row: TypedRow.cardColor)
        press(.enter, .control("u"), into: &state)
        type("#000000", into: &state)
        #expect(try pressAndApply(.escape, into: &state).isEmpty)
        #expect(state.mode.kind == .list && state.editor == nil)
        #expect(state.statusMessage == "Edit cancelled: Card Color unchanged")
        #expect(features.cardColor.overriddenValue == nil)
        #expect(state.pendingWrites.isEmpty)
    }

    @Test func theEditorBufferMovesAndDeletes() throws {
        let (features, _) = typedState()
        var editor = ValueEditor(
            key: "welcomeMessage", setting: ConsoleSetting(features.welcomeMessage), text: "Welcome to Moments")
        editor.perform(.deleteWordBackward)
        #expect(editor.text == "Welcome to ")
        editor.perform(.deleteWordBackward)
        #expect(editor.text == "Welcome ")
        editor.perform(.home)
        editor.insert("A")
        #expect(editor.text == "AWelcome " && editor.cursor == 1)
        editor.perform(.deleteForward)
        #expect(editor.text == "Aelcome ")
        editor.perform(.right)
        editor.perform(.right)
        editor.perform(.deleteToStart)
        #expect(editor.text == "come " && editor.cursor == 0)
        editor.perform(.left)
        #expect(editor.cursor == 0)
        editor.perform(.end)
        editor.perform(.deleteBackward)
        #expect(editor.text == "come" && editor.cursor == 4)
        editor.perform(.right)
        #expect(editor.cursor == 4)
        #expect(editor.result == .success(OverrideValue(string: "come")))
    }

    @Test func editorKeysInTheConsoleReachTheBuffer() throws {
        var (_, state) = typedState(row: TypedRow.welcomeMessage)
        press(.enter, .left, .left, .control("w"), into: &state)
        #expect(state.editor?.text == "Welcome to ts")
        press(.control("a"), .delete, .end, .backspace, into: &state)
        #expect(state.editor?.text == "elcome to t")
        press(.home, .right, .control("u"), into: &state)
        #expect(state.editor?.text == "lcome to t")
    }

    @Test func spaceCyclesAnEnumAndEOpensAPicker() throws {
        var (features, state) = typedState(row: TypedRow.theme)
        try pressAndApply(.character(" "), into: &state)
        #expect(features.theme.value == .light, "system → light (wraps)")
        try pressAndApply(.character(" "), into: &state)
        #expect(features.theme.value == .dark)
        press(.character("e"), into: &state)
        #expect(state.mode.kind == .pick)
        #expect(
            state.picker
                == ChoicePicker(
                    key: "theme", label: "Theme", choices: ["light", "dark", "system"], selected: 1, current: 1))
        let screen = ConsoleLayout.render(state)
        #expect(screen.find("▸ dark  (current)") != nil)
        #expect(screen.find("  system") != nil)
        press(.down, .down, .down, into: &state)
        #expect(state.picker?.selected == 2)
        let effects = try pressAndApply(.enter, into: &state)
        #expect(effects == [.write(.values(["theme": .set(OverrideValue(string: "system"))]))])
        #expect(features.theme.overriddenValue == .system)
        press(.character("e"), .up, into: &state)
        #expect(try pressAndApply(.escape, into: &state).isEmpty)
        #expect(state.mode.kind == .list && features.theme.overriddenValue == .system)
    }

    @Test func eOnAJSONSettingAsksForTheExternalEditorWithPrettyJSON() throws {
        var (_, state) = typedState(row: TypedRow.appFeatureConfig)
        let effects = press(.character("e"), into: &state)
        #expect(
            effects == [
                .editExternally(
                    key: "appFeatureConfig",
                    text: """
                        {
                          "isNewFeatureEnabled" : false,
                          "maxUploadSize" : 10485760,
                          "themeColors" : {
                            "primary" : "#f05138"
                          }
                        }

                        """)
            ])
        // Enter edits the compact JSON inline instead.
        press(.enter, into: &state)
        #expect(state.editor?.text.hasPrefix("{\"isNewFeatureEnabled\":false,") == true)
    }

    @Test func anInvalidExternalEditIsShownAndOfferedAgainNeverStored() throws {
        var (features, state) = typedState(row: TypedRow.appFeatureConfig)
        let bad = "{\"isNewFeatureEnabled\": \"yes\", \"maxUploadSize\": 1, \"themeColors\": {}}"
        _ = state.update(.externalEditFinished(key: "appFeatureConfig", result: .edited(bad)))
        #expect(state.mode.kind == .editRejected)
        #expect(state.rejectedEdit?.text == bad)
        let screen = ConsoleLayout.render(state)
        let footer = (24...29).map { screen.text(row: $0) }.joined()
        #expect(
            footer.contains("Not saved: App Feature Config at $.isNewFeatureEnabled: expected true or false"),
            "\(footer)")
        #expect(screen.find("e edit again") != nil && footer.contains("cancel"))
        #expect(features.appFeatureConfig.overriddenValue == nil)
        // e opens the editor again on the rejected text, so the edit is not lost.
        #expect(press(.character("e"), into: &state) == [.editExternally(key: "appFeatureConfig", text: bad)])
        _ = state.update(.externalEditFinished(key: "appFeatureConfig", result: .edited("not json")))
        #expect(state.mode.kind == .editRejected)
        #expect(press(.escape, into: &state).isEmpty)
        #expect(state.mode.kind == .list && features.appFeatureConfig.overriddenValue == nil)
        // A valid result is written; an editor that failed leaves a message and writes nothing.
        let good = "{\"isNewFeatureEnabled\": true, \"maxUploadSize\": 5, \"themeColors\": {}}"
        let effects = state.update(.externalEditFinished(key: "appFeatureConfig", result: .edited(good)))
        try apply(effects, to: &state)
        #expect(
            features.appFeatureConfig.value
                == AppFeatureConfig(isNewFeatureEnabled: true, maxUploadSize: 5, themeColors: [:]))
        _ = state.update(
            .externalEditFinished(
                key: "appFeatureConfig", result: .failed("The editor (vi) exited with status 1: nothing was changed")))
        #expect(state.statusMessage == "The editor (vi) exited with status 1: nothing was changed")
    }

    @Test func theRunnerHandsTheTerminalToAScriptedEditorAndStoresItsResult() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("c10-editor-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("editor.sh")
        // Records what it was given, then rewrites the file.
        try """
        #!/bin/sh
        cp "$1" '\(folder.path)/seen.json'
        printf '{"isNewFeatureEnabled":true,"maxUploadSize":42,"themeColors":{"primary":"#000000"}}' > "$1"
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let features = FeatureRegistry(TypedConsoleFeatures(), store: InMemoryOverrideStore())
        var state = ConsoleHarness(registry: features)
        state.move(to: TypedRow.appFeatureConfig)
        let terminal = ScriptedTerminal(events: [])
        let runner = ConsoleEffectRunner(
            registry: features, terminal: terminal, editor: ExternalEditor(command: script.path))
        try runner.send(.key(.character("e")), to: &state)
        #expect(terminal.handOverCount == 1)
        #expect(runner.needsFullRedraw, "the screen is repainted after the editor")
        #expect(
            features.appFeatureConfig.value
                == AppFeatureConfig(isNewFeatureEnabled: true, maxUploadSize: 42, themeColors: ["primary": "#000000"]))
        let seen = try String(contentsOf: folder.appendingPathComponent("seen.json"), encoding: .utf8)
        #expect(seen.contains("\"maxUploadSize\" : 10485760"))
    }

    @Test func anEditorThatFailsChangesNothing() throws {
        let result = ExternalEditor(command: "false").edit("{}", name: "x")
        #expect(result == .failed("The editor (false) exited with status 1: nothing was changed"))
        #expect(ExternalEditor(command: "true").edit("{\"a\": 1}\n", name: "a/b") == .edited("{\"a\": 1}\n"))
    }

    @Test func forceKeysOnTypedRowsExplainWhichKeyToUse() throws {
        var (features, state) = typedState(row: TypedRow.maxItems)
        #expect(press(.character("o"), into: &state).isEmpty)
        #expect(
            state.statusMessage == "o forces flags only; Max Items is an integer setting: Enter or e edits it, r resets"
        )
        #expect(press(.character("x"), into: &state).isEmpty)
        #expect(state.statusMessage?.hasPrefix("x forces flags only") == true)
        #expect(press(.character(" "), into: &state).isEmpty)
        #expect(state.statusMessage?.hasPrefix("Space flips flags and cycles choices") == true)
        state.move(to: TypedRow.appFeatureConfig)
        press(.character("o"), into: &state)
        #expect(state.statusMessage?.hasSuffix("e opens $VISUAL/$EDITOR, Enter edits inline, r resets") == true)
        state.move(to: TypedRow.blueText)
        press(.character("e"), into: &state)
        #expect(state.statusMessage == "Blue Text is an on/off flag: o forces ON, x OFF, Space flips, r resets")
        // A boolean setting takes o, x and Space like a flag.
        state.move(to: TypedRow.compact)
        try pressAndApply(.character("o"), into: &state)
        #expect(features.compact.value == true)
        try pressAndApply(.character(" "), into: &state)
        #expect(features.compact.value == false && features.compact.overriddenValue == false)
        try pressAndApply(.character("r"), into: &state)
        #expect(features.compact.overriddenValue == nil)
    }

    @Test func rResetsATypedSettingAndTheRowShowsTheWriteUntilItIsSaved() throws {
        var (features, state) = typedState(row: TypedRow.cardColor)
        features.cardColor.overriddenValue = "#000000"
        state.refreshAll()
        let effects = press(.character("r"), into: &state)
        #expect(effects == [.write(.values(["cardColor": .remove]))])
        // Not yet performed: the row says the override is being removed.
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: screen.row(containing: "Card Color")).contains("resetting"))
        try apply(effects, to: &state)
        screen = ConsoleLayout.render(state)
        #expect(screen.text(row: screen.row(containing: "Card Color")).contains("default"))
        #expect(features.cardColor.overriddenValue == nil)
    }
}
