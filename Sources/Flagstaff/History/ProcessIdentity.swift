import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        return ProcessIdentity(user: userName(), pid: getpid(), command: String(command))
    }()

    /// The effective user's login name, else `$USER`, else `uid N`.
    private static func userName() -> String {
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwuid_r(geteuid(), &record, &buffer, buffer.count, &result) == 0, let entry = result,
            let name = entry.pointee.pw_name
        {
            return String(cString: name)
        }
        if let user = ProcessInfo.processInfo.environment["USER"], !user.isEmpty { return user }
        return "uid \(geteuid())"
    }

    /// A new change id: 16 hexadecimal digits.
    static func newChangeID() -> String {
        let value = UInt64.random(in: 0...UInt64.max)
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
