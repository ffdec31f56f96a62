import FlagstaffTestSupport
import Foundation

/// Whether python3 has the third-party packages a test drives (installed by `.ci/run`).
enum PythonPackages {
    /// `nil` when `python3 -c "import <modules>"` succeeds, else why not (with the pip line that fixes it).
    static func unavailableReason(importing modules: String, install packages: String) -> String? {
        do {
            let result = try CommandRunner.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import \(modules)"],
                environment: ProcessInfo.processInfo.environment, timeout: .seconds(60))
            if result.status != 0 {
                return "python3 cannot import \(modules) (pip install \(packages)): " + result.standardError
            }
            return nil
        } catch {
            return "python3 could not be started: \(error)"
        }
    }
}
