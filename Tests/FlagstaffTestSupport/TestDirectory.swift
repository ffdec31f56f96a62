import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Private directories for tests, all inside one folder per test process that is removed when the process
/// exits, so test runs leave nothing behind in the temporary directory (a run makes hundreds of them).
package enum TestDirectory {
    /// `<temporary directory>/flagstaff-test-run-<pid>/`, made (and its removal at exit registered) on first use.
    private static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-test-run-\(getpid())")
        try? FileManager.default.removeItem(at: url)  // a folder left by an earlier process with this pid
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-test-run-\(getpid())")
            try? FileManager.default.removeItem(at: path)
        }
        return url
    }()

    /// A new empty directory, removed with the others when the test process exits.
    /// - Parameter prefix: the start of its name, for whoever looks while the tests run.
    package static func make(_ prefix: String = "test") -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
