import FlagstaffTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `flagstaff`, copied under a folder only root may search and run as `nobody` (uid 65534): the demo
/// registry asked Foundation's `Bundle.main`, which traps when the program's folder is not searchable.
@Suite(.enabled(if: UnsearchableFolder.unavailableReason == nil, UnsearchableFolder.skipComment))
struct UnsearchableFolderTests {
    @Test func theDemoRegistryRunsFromAFolderItsUserCannotSearch() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("unsearchable-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("bin")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let binary = folder.appendingPathComponent("flagstaff")
        // Copied by a child process: a copy written here would leave a writable descriptor that a process this test
        // run spawns at the same moment inherits, and exec then fails with "Text file busy" (ETXTBSY).
        let copy = try await CommandRunner.run(
            URL(fileURLWithPath: "/bin/cp"), [try BuildProducts.executable(named: "flagstaff").path, binary.path],
            environment: [:], timeout: .seconds(60))
        try #require(copy.status == 0, "\(copy)")
        chmod(root.path, 0o755)
        chmod(home.path, 0o777)
        chmod(binary.path, 0o755)
        chmod(folder.path, 0o700)
        let store = home.appendingPathComponent("demo.json").path
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: UnsearchableFolder.setpriv),
            [
                "--reuid", "65534", "--regid", "65534", "--clear-groups", binary.path, "get", "blueText", "--demo",
                "--store", store,
            ],
            environment: ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], timeout: .seconds(60))
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "off\n", "\(result)")
    }
}

/// Whether the test can run: it needs root (to give the folder away) and `setpriv`.
enum UnsearchableFolder {
    static let setpriv = "/usr/bin/setpriv"

    static var unavailableReason: String? {
        if geteuid() != 0 { return "needs root, to run the binary as another user" }
        if !FileManager.default.isExecutableFile(atPath: setpriv) { return "needs \(setpriv) (util-linux)" }
        return nil
    }

    static var skipComment: Comment { Comment(rawValue: "skipped: \(unavailableReason ?? "")") }
}
