import Foundation

/// Who is writing: the user, the process id and its command line, as the journal records them.
struct ProcessIdentity: Sendable {
    var user: String
    var pid: Int32
    var command: String

    /// This process.
    static let current: ProcessIdentity = {
        var words = CommandLine.arguments
        if let program = words.first { words[0] = (program as NSString).lastPathComponent }
        var command = words.joined(separator: " ").map { $0.isNewline ? " " : $0 }
        if command.count > 200 { command = Array(command.prefix(199)) + ["…"] }
        return ProcessIdentity(user: userName(), pid: Platform.processID, command: String(command))
    }()

    /// The effective user's login name, else `$USER`, else `uid N`.
    private static func userName() -> String {
        if let name = Platform.userName(of: Platform.effectiveUserID) { return name }
        if let user = ProcessInfo.processInfo.environment["USER"], !user.isEmpty { return user }
        return "uid \(Platform.effectiveUserID)"
    }

    /// A new change id: 16 hexadecimal digits.
    static func newChangeID() -> String {
        let value = UInt64.random(in: 0...UInt64.max)
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
