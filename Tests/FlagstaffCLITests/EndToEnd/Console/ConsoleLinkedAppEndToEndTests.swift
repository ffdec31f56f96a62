import Flagstaff
import FlagstaffRemote
import FlagstaffTestSupport
import Foundation
import Testing

/// `flagstaff console --serve` with no registry named, and an app linked to it (issue 35 item 2): the app announces
/// its registry, the console lists the app's own flags with the app's values and says which app they came from,
/// and a key pressed on one of them reaches the app.
@Suite(.serialized) struct ConsoleLinkedAppEndToEndTests {
    struct PhoneApp: FeatureGroup {
        let plainSwitch = Feature(description: "a flag QA forces")
        let internalMenu = Feature(enabledIn: [.debug, .internal])
        let pageSize = Setting(default: 20, range: 5...100)
    }

    @Test func aLinkedAppsFlagsAppearAndFollowTheConsole() async throws {
        let harness = try ConsoleHarness(arguments: ["--serve", "127.0.0.1:0"], namesRegistry: false)
        let empty = try await harness.session.waitFor("the empty registry") {
            $0.contains("Linked apps") && $0.contains("q quit")
        }
        let header = empty.text(line: 0)
        let port = try #require(
            header.components(separatedBy: "serve 127.0.0.1:").dropFirst().first?.prefix { $0.isNumber },
            "\(empty.text)")

        // The app, in this process: its own registry, linked to the console's server.
        let app = FeatureRegistry(
            PhoneApp(), store: InMemoryOverrideStore(),
            options: RegistryOptions(storeWatchInterval: nil, launchOverrides: .none))
        let link = OFREPProvider(options: OFREPOptions(baseURL: URL(string: "http://127.0.0.1:\(port)")!))
            .link(to: app)
        defer { link.provider.stop() }

        // Its members appear, with the app's own build-target value (this test runs a debug build: on).
        let listed: TmuxScreen
        do {
            listed = try await harness.session.waitFor("the app's flags") {
                $0.contains("Plain Switch") && $0.contains("Internal Menu") && $0.contains("Page Size")
            }
        } catch {
            Issue.record("the app's announcement: \(link.provider.announcementState)")
            throw error
        }
        // The provider records the server's answer after the server has adopted the registry.
        #expect(await eventually { link.provider.announcementState == .announced })
        #expect(listed.text.contains("1 SDK"), "\(listed.text)")

        // The apps overlay names the registry the app announced.
        try harness.session.sendKeys("A")
        let overlay = try await harness.session.waitFor("the apps overlay") { $0.contains("Connected apps") }
        #expect(overlay.text.contains("registry Phone App"), "\(overlay.text)")
        #expect(overlay.text.contains("3 members"), "\(overlay.text)")
        try harness.session.sendKeys("Escape")

        // A key pressed on the app's flag reaches the app; the one QA did not touch keeps the app's value.
        #expect(!app.plainSwitch.enabled)
        try harness.session.sendKeys("/")
        try harness.session.type("Plain")
        try harness.session.sendKeys("Enter")
        try await harness.session.waitFor("Plain Switch selected") {
            $0.selectedLine?.hasPrefix("Plain Switch") == true
        }
        try harness.session.sendKeys("o")
        #expect(await eventually { app.plainSwitch.enabled })
        #expect(app.plainSwitch.resolution.source == .link(server: "http://127.0.0.1:\(port)"))
        #expect(app.internalMenu.linkedValue == nil, "the app's build-target value is its own")
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }
}
