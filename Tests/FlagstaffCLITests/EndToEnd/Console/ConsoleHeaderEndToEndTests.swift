import FlagstaffTestSupport
import Foundation
import Testing

/// The header of the real `flagstaff console --serve` at ordinary widths (issue 28 item 2).
@Suite(.serialized) struct ConsoleHeaderEndToEndTests {
    @Test(arguments: [100, 80])
    func theServerSummaryShowsBesideTheTitleAndCounts(width: Int) async throws {
        let harness = try ConsoleHarness(arguments: ["--serve", "127.0.0.1:0"], width: width)
        let screen = try await harness.waitForConsole()
        let header = screen.text(line: 0)
        #expect(header.hasPrefix(" Flagstaff · E2E demo "), "\(header)")
        #expect(header.contains("8 flags"), "\(header)")
        #expect(header.contains("serve 127.0.0.1:"), "\(header)")
        #expect(header.contains("· no SDK yet"), "\(header)")
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }
}
