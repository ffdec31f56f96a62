import Foundation

/// The program `e` opens on a JSON setting: a shell command (`$VISUAL`, else `$EDITOR`, else `vi`) run with
/// `/bin/sh -c` on a temporary file that holds the value as pretty-printed JSON.
package struct ExternalEditor: Sendable {
    /// The command; the file's path is appended as one more argument (`code --wait` works).
    package var command: String

    /// An editor running `command`.
    /// - Parameter command: a shell command; `nil` takes `$VISUAL`, else `$EDITOR`, else `vi`.
    package init(command: String? = nil) {
        let environment = ProcessInfo.processInfo.environment
        let candidates = [command, environment["VISUAL"], environment["EDITOR"]]
        self.command =
            candidates.lazy.compactMap { $0?.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? "vi"
    }

    /// Writes `text` to a new temporary file, runs the editor on it in the foreground and reads the file back;
    /// the file and its folder are removed afterwards.
    /// - Parameters:
    ///   - text: the file's initial contents.
    ///   - name: the setting's key, for the file's name (`maxItems.json`).
    /// - Returns: the file's text after the editor exited with status 0, or why there is none.
    package func edit(_ text: String, name: String) -> ExternalEditResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flagstaff-edit-" + UUID().uuidString, isDirectory: true)
        let safeName = String(name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(80))
        let file = folder.appendingPathComponent((safeName.isEmpty ? "value" : safeName) + ".json")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Data(text.utf8).write(to: file)
        } catch {
            return .failed("Could not write the temporary file \(file.path): \(error.localizedDescription)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " \"$1\"", "sh", file.path]
        do {
            try process.run()
        } catch {
            return .failed("Could not start the editor (\(command)): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            return .failed(
                "The editor (\(command)) exited with status \(process.terminationStatus): nothing was changed")
        }
        guard let data = try? Data(contentsOf: file), let edited = String(data: data, encoding: .utf8) else {
            return .failed("Could not read back \(file.path) (missing or not UTF-8): nothing was changed")
        }
        return .edited(edited)
    }
}
