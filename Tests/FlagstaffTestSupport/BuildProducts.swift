import Foundation

/// Finds the executables `swift build` produced, so tests can run them as subprocesses.
///
/// Looks first in the directory of the running test bundle (`.build/<triple>/<config>/`, where SwiftPM puts
/// every product of the same build), then under the package root found from this file's path
/// (`.build/debug`, `.build/release`).
package enum BuildProducts {
    /// Why an executable could not be found.
    package struct NotFound: Error, CustomStringConvertible {
        /// The executable's name.
        package let name: String
        /// Every path tried.
        package let searched: [String]

        /// A message saying where it looked and how to build it.
        package var description: String {
            "cannot find the built executable '\(name)' (looked in: \(searched.joined(separator: ", "))); run `swift build --product \(name)` first"
        }
    }

    /// The package's root directory (the one holding Package.swift), from this source file's path.
    package static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)  // …/Tests/FlagstaffTestSupport/BuildProducts.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The directory the running test executable is in, if it can be found.
    package static var testBundleDirectory: URL? {
        let candidates = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments.first ?? "")]
        for case let url? in candidates where !url.path.isEmpty {
            var directory = url.resolvingSymlinksInPath().deletingLastPathComponent()
            // On macOS the runner lives inside …/<config>/X.xctest/Contents/MacOS.
            while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
            if FileManager.default.fileExists(atPath: directory.path) { return directory }
        }
        return nil
    }

    /// The path of a built executable.
    /// - Parameter name: the product name, e.g. `flagstaff`.
    /// - Returns: its file URL.
    /// - Throws: ``NotFound`` listing the places searched.
    package static func executable(named name: String) throws -> URL {
        var candidates: [URL] = []
        if let directory = testBundleDirectory { candidates.append(directory.appendingPathComponent(name)) }
        let build = packageRoot.appendingPathComponent(".build")
        candidates.append(build.appendingPathComponent("debug").appendingPathComponent(name))
        candidates.append(build.appendingPathComponent("release").appendingPathComponent(name))
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw NotFound(name: name, searched: candidates.map(\.path))
    }
}
