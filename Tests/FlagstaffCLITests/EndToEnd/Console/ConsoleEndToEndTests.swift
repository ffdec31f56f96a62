import FlagstaffTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real `flagstaff console` in a real terminal (tmux), read back with colours and attributes.
@Suite(.serialized) struct ConsoleEndToEndTests {
    @Test func navigationMovesTheReverseVideoRow() async throws {
        let harness = try ConsoleHarness()
        var screen = try await harness.waitForConsole()
        #expect(screen.selectedLine?.hasPrefix("Blue Text") == true)
        try harness.session.sendKeys("Down", "j", "Down")
        screen = try await harness.session.waitFor("▾ Moments selected") { $0.selectedLine == "▾ Moments" }
        try harness.session.sendKeys("Left")
        screen = try await harness.session.waitFor("Moments collapsed") {
            $0.contains("▸ Moments (2)") && !$0.contains("Is Rounded Avatar")
        }
        #expect(screen.contains("Infinite Scroll"))
        try harness.session.sendKeys("End")
        try await harness.session.waitFor("last row selected") { $0.selectedLine?.hasPrefix("Compact Rows") == true }
        try harness.session.sendKeys("Home")
        try await harness.session.waitFor("first row selected") { $0.selectedLine?.hasPrefix("Blue Text") == true }
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func searchNarrowsAndEscapeClears() async throws {
        let frameLog = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flagstaff-frames-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: frameLog) }
        let harness = try ConsoleHarness(environment: ["FLAGSTAFF_FRAME_LOG": frameLog.path])
        try await harness.waitForConsole()
        try harness.session.sendKeys("/")
        try harness.session.type("avatar")
        let screen = try await harness.session.waitFor("narrowed list") {
            $0.contains("/ avatar") && $0.contains("Moments → Is Rounded Avatar") && !$0.contains("Blue Text")
        }
        let highlighted = try #require(screen.styled("Avatar"))
        #expect(highlighted.allSatisfy { $0.foreground == .indexed(6) && $0.bold }, "the match is highlighted in cyan")
        try harness.session.sendKeys("Escape")
        try await harness.session.waitFor("full list again") { $0.contains("Blue Text") && $0.contains("/ to search") }
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
        // FLAGSTAFF_FRAME_LOG: one line of microseconds per frame drawn for keys ("/", the typed run, Esc).
        let lines = try String(contentsOf: frameLog, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 3 && lines.allSatisfy { Int($0).map { $0 >= 0 } == true }, "\(lines)")
    }

    @Test func tabCyclesTheScope() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("Tab")
        // Each wait names the whole expected screen: a capture taken mid-repaint can hold half of each frame.
        _ = try await harness.session.waitFor("scope On") {
            $0.contains("[On]") && $0.contains("Moments → Is Rounded Avatar") && !$0.contains("Blue Text")
                && $0.contains("List → Infinite Scroll")
        }
        try harness.session.sendKeys("Tab")
        _ = try await harness.session.waitFor("scope Off") {
            $0.contains("[Off]") && $0.contains("Blue Text") && !$0.contains("Is Rounded Avatar")
                && $0.contains("Moments → Is Like Button For Moment Enabled")
        }
        try harness.session.sendKeys("Tab")
        _ = try await harness.session.waitFor("scope Overridden") {
            $0.contains("[Overridden]") && $0.contains("No flags in this scope") && !$0.contains("Blue Text")
        }
        try harness.session.sendKeys("BTab", "BTab")
        try await harness.session.waitFor(text: "[On]")
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func forceOnOffAndResetAreDrawnAndStored() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("Down")  // off the selected row, so colours are not reversed
        try harness.session.sendKeys("Up", "o", "Down")
        var screen = try await harness.session.waitFor(text: "ON   override")
        var label = try #require(screen.styled("Blue Text"))
        #expect(
            label.allSatisfy { $0.foreground.isGreen && $0.underline && $0.bold },
            "ON override: green, underlined, bold")
        #expect(try await harness.waitForStore { $0["blueText"] == "on" }["blueText"] == "on")

        try harness.session.sendKeys("Up", "x", "Down")
        screen = try await harness.session.waitFor(text: "OFF  override")
        label = try #require(screen.styled("Blue Text"))
        #expect(label.allSatisfy { $0.foreground.isRed && $0.underline }, "OFF override: red, underlined")
        #expect(try await harness.waitForStore { $0["blueText"] == "off" }["blueText"] == "off")

        try harness.session.sendKeys("Up", "r", "Down")
        screen = try await harness.session.waitFor("reset") {
            $0.contains("0 overridden") && $0.styled("Blue Text")?.contains(where: \.underline) == false
        }
        label = try #require(screen.styled("Blue Text"))
        #expect(label.allSatisfy { $0.foreground.isRed && !$0.underline }, "at default: red, not underlined")
        #expect(try await harness.waitForStore { $0["blueText"] == nil }["blueText"] == nil)
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func restartPromptOnlyForRestartFlagsAndUndoRestores() async throws {
        // An ordinary change: q quits at once.
        var harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("o", "q")
        var exit = try await harness.waitForExit()
        #expect(exit.status == 0)
        #expect(!(try harness.session.capture().contains("Restart needed")))

        // A restart-requiring change: the prompt lists it; u restores it.
        harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("Down", "o")
        #expect(try await harness.waitForStore { $0["useTabBarNav"] == "on" }["useTabBarNav"] == "on")
        try harness.session.sendKeys("q")
        try await harness.session.waitFor(text: "Use Tab Bar Nav  OFF → ON")
        try harness.session.sendKeys("u")
        exit = try await harness.waitForExit()
        #expect(exit.status == 0)
        #expect(try harness.storedOverrides()["useTabBarNav"] == nil)

        // l keeps it and the exit status says a restart is due.
        harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("Down", "o", "q")
        try await harness.session.waitFor(text: "Restart needed")
        try harness.session.sendKeys("Escape")
        try await harness.session.waitFor("prompt closed") { !$0.contains("Restart needed") }
        try harness.session.sendKeys("q")
        try await harness.session.waitFor(text: "Restart needed")
        try harness.session.sendKeys("l")
        #expect(try await harness.waitForExit().status == 3)
        #expect(try harness.storedOverrides()["useTabBarNav"] == "on")
    }

    @Test func restartNowRunsTheRestartCommand() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("restarted-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: marker) }
        let harness = try ConsoleHarness(arguments: ["--restart-command", "touch \(marker.path)"])
        try await harness.waitForConsole()
        try harness.session.sendKeys("Down", "o", "q")
        try await harness.session.waitFor(text: "Restart needed")
        try harness.session.sendKeys("r")
        #expect(try await harness.waitForExit().status == 0)
        #expect(FileManager.default.fileExists(atPath: marker.path))
    }

    @Test func noColorIsStillReadable() async throws {
        let harness = try ConsoleHarness(environment: ["NO_COLOR": "1"])
        try await harness.waitForConsole()
        try harness.session.sendKeys("o", "Down")
        let screen = try await harness.session.waitFor(text: "ON   override")
        #expect(screen.lines.allSatisfy { $0.allSatisfy { $0.foreground == .default } }, "no colour anywhere")
        #expect(try #require(screen.styled("Blue Text")).allSatisfy(\.underline))
        #expect(screen.contains("OFF  default"))
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func noColorFlagToo() async throws {
        let harness = try ConsoleHarness(arguments: ["--no-color"])
        let screen = try await harness.waitForConsole()
        #expect(screen.lines.allSatisfy { $0.allSatisfy { $0.foreground == .default } })
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func resizeRedrawsAndTooSmallAsksForRoom() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.resize(width: 30, height: 8)
        try await harness.session.waitFor(text: "Terminal too small")
        try harness.session.sendKeys("o")  // ignored below the minimum size
        try harness.session.resize(width: 60, height: 20)
        let screen = try await harness.session.waitFor("normal size again") {
            $0.contains("Blue Text") && $0.contains("q quit")
        }
        #expect(screen.contains("OFF  default"))
        #expect(try harness.storedOverrides().isEmpty)
        try harness.session.resize(width: 20, height: 5)
        try await harness.session.waitFor(text: "Terminal too")
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func ctrlCRestoresTheTerminalAndExits130() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("C-c")
        let exit = try await harness.waitForExit()
        #expect(exit.status == 130)
        #expect(exit.sttyUnchanged)
    }

    @Test func sigtermRestoresTheTerminalAndExits143() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        #expect(kill(try await harness.consolePID(), SIGTERM) == 0)
        let exit = try await harness.waitForExit()
        #expect(exit.status == 143)
        #expect(exit.sttyUnchanged)
    }

    @Test func sighupRestoresTheTerminalAndExits129() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        #expect(kill(try await harness.consolePID(), SIGHUP) == 0)
        let exit = try await harness.waitForExit()
        #expect(exit.status == 129)
        #expect(exit.sttyUnchanged)
    }

    @Test func ctrlZSuspendsAndFgRedraws() async throws {
        // Job control needs an interactive shell: in `bash -c` the console's process group is orphaned and
        // the kernel discards the stop.
        let harness = try ConsoleHarness(interactiveShell: true)
        try await harness.session.waitFor(text: "$")
        try harness.session.type("S1=$(stty -g); " + harness.consoleCommand)
        try harness.session.sendKeys("Enter")
        try await harness.waitForConsole()
        try harness.session.sendKeys("C-z")
        try await harness.session.waitFor(text: "Stopped")
        try harness.session.type("fg")
        try harness.session.sendKeys("Enter")
        try await harness.session.waitFor(text: "Blue Text")
        try harness.session.sendKeys("o")
        try await harness.session.waitFor(text: "ON   override")
        try harness.session.sendKeys("q")
        try await harness.session.waitFor("the shell's prompt") { !$0.contains("Blue Text") }
        try harness.session.type(#"echo EXIT=$?; [ "$S1" = "$(stty -g)" ] && echo STTY=same || echo STTY=changed"#)
        try harness.session.sendKeys("Enter")
        let exit = try await harness.waitForExit()
        #expect(exit.status == 0)
        #expect(exit.sttyUnchanged)
        #expect(try harness.storedOverrides()["blueText"] == "on")
    }

    @Test func wideAndCombiningCharactersStayAligned() async throws {
        let harness = try ConsoleHarness()
        let screen = try await harness.waitForConsole()
        // Columns of "OFF" on an ASCII row and on the row with seven double-width characters and "e" plus a
        // combining accent (one character, one column).
        let ascii = try #require(screen.line(containing: "Blue Text"))
        let wide = try #require(screen.line(containing: "日本語のフラグ Café"))
        let asciiColumn = try #require(screen.text(line: ascii).firstRange(of: "OFF")).lowerBound
        let asciiOffset = screen.text(line: ascii).distance(from: screen.text(line: ascii).startIndex, to: asciiColumn)
        let wideText = screen.text(line: wide)
        let wideOffset = wideText.distance(
            from: wideText.startIndex, to: try #require(wideText.firstRange(of: "OFF")).lowerBound)
        #expect(wideOffset + 7 == asciiOffset, "\(screen.text)")
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func asciiGlyphsWithoutAUTF8Locale() async throws {
        let harness = try ConsoleHarness(environment: ["LANG": "C"])
        let screen = try await harness.waitForConsole()
        #expect(screen.contains(" v Moments"))
        #expect(screen.contains("OFF  default     R"))
        #expect(!screen.contains("▾") && !screen.contains("⟳") && !screen.contains("─"))
        #expect(screen.contains("??????? Caf?"), "non-ASCII text shows as ?")
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func aTerminalWithoutCursorAddressingIsRefused() async throws {
        let harness = try ConsoleHarness(terminalType: "dumb")
        let screen = try await harness.session.waitFor(text: "STTY=")
        #expect(screen.text.contains("cannot open the terminal (TERM=dumb)"))
        let exit = try await harness.waitForExit()
        #expect(exit.status == 2)
        #expect(exit.sttyUnchanged)
    }

    @Test func notATerminalExits2WithAMessage() async throws {
        let harness = try ConsoleHarness()
        let result = try await harness.runCLI(["console"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("flagstaff list"))
    }

    @Test func escapeSequencesInNamesAreInert() async throws {
        let harness = try ConsoleHarness()
        let screen = try await harness.waitForConsole()
        #expect(screen.contains(#"Evil \u{1B}[31mRED\u{1B}[0m name"#))
        // The sequence did not turn the text red: the default-ON flag is green.
        #expect(try #require(screen.styled("RED")).allSatisfy { $0.foreground.isGreen })
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func changesFromAnotherProcessAppearLive() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("/")
        try harness.session.type("scroll")
        try harness.session.sendKeys("Enter")
        try await harness.session.waitFor("search kept") {
            $0.contains("/ scroll") && $0.contains("List → Infinite Scroll")
        }
        let set = try await harness.runCLI(["set", "list.infiniteScroll", "off"])
        #expect(set.status == 0, "\(set.standardError)")
        // The store is polled every 0.5 s, so this takes about a second; the deadline leaves room for a loaded
        // CI machine.
        let screen = try await harness.session.waitFor("external change", timeout: 5) { $0.contains("OFF  override") }
        #expect(screen.contains("/ scroll"), "the search is kept")
        #expect(screen.selectedLine?.hasPrefix("List → Infinite Scroll") == true, "the cursor is kept")
        // Writing the store file directly works too.
        try Data(#"{"version":1,"overrides":{"list.infiniteScroll":"on"}}"#.utf8).write(to: harness.store)
        try await harness.session.waitFor("file change", timeout: 5) { $0.contains("ON   override") }
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }
}
