import Flagstaff
import Foundation

/// A child process for the multi-process and crash tests of `FileOverrideStore`.
///
/// `store-stress write FILE PREFIX COUNT` sets `PREFIX.0` … `PREFIX.<COUNT-1>` on, one read-modify-write each.
/// `store-stress forever FILE PREFIX` keeps doing that and prints `done N` after each completed write, so a
/// test can kill it at any moment and know which writes completed.
/// `store-stress bulk FILE PREFIX COUNT` and `store-stress forever-bulk FILE PREFIX` do the same with 20 keys a
/// write (`PREFIX.<index>.0` … `PREFIX.<index>.19`), for the change journal's multi-process tests.
/// `store-stress hold FILE` takes the store's lock, prints `locked`, and holds it until it is killed or its parent
/// process ends.
/// `store-stress toggle FILE` opens a registry on the store and toggles its flag `toggled` through the app's setter
/// (`override =`) until it is killed, printing `done N` after every 100th toggle (N counted from 0).
@main
enum StoreStressTool {
    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "hold" {
            hold(arguments[2])
        }
        if arguments.count == 3, arguments[1] == "toggle" {
            toggle(arguments[2])
        }
        guard arguments.count >= 4, let store = try? FileOverrideStore(url: URL(fileURLWithPath: arguments[2])) else {
            FileHandle.standardError.write(
                Data("usage: store-stress write|forever|bulk|forever-bulk FILE PREFIX [COUNT] | hold FILE\n".utf8))
            exit(2)
        }
        let prefix = arguments[3]
        let count = arguments.count > 4 ? Int(arguments[4]) ?? 0 : Int.max
        let width = arguments[1].hasSuffix("bulk") ? 20 : 1
        var index = 0
        while index < count {
            let value: OverrideEdit = .set(index.isMultiple(of: 2) ? .on : .off)
            let changes =
                width == 1
                ? ["\(prefix).\(index)": value]
                : Dictionary(uniqueKeysWithValues: (0..<width).map { ("\(prefix).\(index).\($0)", value) })
            do {
                _ = try store.write(OverrideChange(changes))
            } catch {
                FileHandle.standardError.write(Data("store-stress: \(error)\n".utf8))
                exit(1)
            }
            if arguments[1].hasPrefix("forever") {
                FileHandle.standardOutput.write(Data("done \(index)\n".utf8))
            }
            index += 1
        }
    }

    static func hold(_ file: String) -> Never {
        do {
            try FileOverrideStore(url: URL(fileURLWithPath: file)).holdingLock {
                FileHandle.standardOutput.write(Data("locked\n".utf8))
                // Until killed (the test's release), or until the test process is gone (no holder outlives it).
                let parent = getppid()
                while getppid() == parent { usleep(50_000) }
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("store-stress: \(error)\n".utf8))
            exit(1)
        }
    }

    /// The app of `toggle`: one flag.
    struct ToggleFeatures: FeatureGroup {
        let toggled = Feature()
    }

    static func toggle(_ file: String) -> Never {
        do {
            let store = try FileOverrideStore(url: URL(fileURLWithPath: file))
            let features = FeatureRegistry(
                ToggleFeatures(), store: store, options: RegistryOptions(storeWatchInterval: nil))
            var index = 0
            while true {
                features.toggled.override = index.isMultiple(of: 2) ? .enabled : .disabled
                if index % 100 == 99 { FileHandle.standardOutput.write(Data("done \(index)\n".utf8)) }
                index += 1
            }
        } catch {
            FileHandle.standardError.write(Data("store-stress: \(error)\n".utf8))
            exit(1)
        }
    }
}
