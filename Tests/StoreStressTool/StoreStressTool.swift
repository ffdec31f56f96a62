import Flagstaff
import Foundation

/// A child process for the multi-process and crash tests of `FileOverrideStore`.
///
/// `store-stress write FILE PREFIX COUNT` sets `PREFIX.0` … `PREFIX.<COUNT-1>` on, one read-modify-write each.
/// `store-stress forever FILE PREFIX` keeps doing that and prints `done N` after each completed write, so a
/// test can kill it at any moment and know which writes completed.
/// `store-stress hold FILE` takes the store's lock, prints `locked`, and holds it until its standard input ends.
@main
enum StoreStressTool {
    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "hold" {
            hold(arguments[2])
        }
        guard arguments.count >= 4, let store = try? FileOverrideStore(url: URL(fileURLWithPath: arguments[2])) else {
            FileHandle.standardError.write(
                Data("usage: store-stress write|forever FILE PREFIX [COUNT] | hold FILE\n".utf8))
            exit(2)
        }
        let prefix = arguments[3]
        let count = arguments.count > 4 ? Int(arguments[4]) ?? 0 : Int.max
        var index = 0
        while index < count {
            do {
                _ = try store.update(["\(prefix).\(index)": index.isMultiple(of: 2) ? .enabled : .disabled])
            } catch {
                FileHandle.standardError.write(Data("store-stress: \(error)\n".utf8))
                exit(1)
            }
            if arguments[1] == "forever" {
                FileHandle.standardOutput.write(Data("done \(index)\n".utf8))
            }
            index += 1
        }
    }

    static func hold(_ file: String) -> Never {
        do {
            try FileOverrideStore(url: URL(fileURLWithPath: file)).holdingLock {
                FileHandle.standardOutput.write(Data("locked\n".utf8))
                _ = FileHandle.standardInput.readDataToEndOfFile()
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("store-stress: \(error)\n".utf8))
            exit(1)
        }
    }
}
