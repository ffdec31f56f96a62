import Flagstaff
import Foundation

/// The generated manifest the console and terminal benchmarks load: `flagCount / 100` groups of 100 flags,
/// keys and labels built from a small vocabulary (so one-letter and common-word queries match many flags),
/// a description per flag, every third flag on, every fiftieth requiring a restart.
enum BenchManifest {
    static let words = [
        "avatar", "scroll", "network", "cache", "payment", "checkout", "moments", "like", "button",
        "rounded", "compact", "debug", "logging", "tab", "bar", "infinite", "prefetch", "retry",
        "banner", "dark", "mode", "search", "profile", "upload",
    ]

    static func make(flagCount: Int) -> RegistryManifest {
        func name(_ n: Int, _ parts: Int) -> [String] {
            (0..<parts).map { words[(n / (1 + $0 * 7) + $0 * 5) % words.count] }
        }
        let groupCount = max(1, flagCount / 100)
        var groups: [RegistryManifest.Group] = []
        groups.reserveCapacity(groupCount)
        for g in 0..<groupCount {
            let groupKey = "g\(g)" + name(g, 1)[0]
            let flags = (0..<(flagCount / groupCount)).map { i -> RegistryManifest.Flag in
                let n = g * 100 + i
                let parts = name(n, 3)
                let key = groupKey + "." + parts[0] + parts[1].capitalized + parts[2].capitalized + "\(n)"
                return RegistryManifest.Flag(
                    key: key, description: "Turns \(parts.joined(separator: " ")) on for flag \(n)",
                    default: n % 3 == 0,
                    requiresRestart: n % 50 == 0
                )
            }
            groups.append(RegistryManifest.Group(key: groupKey, label: groupKey.capitalized, flags: flags))
        }
        return RegistryManifest(name: "Bench", groups: groups)
    }

    /// Writes the manifest as JSON to a temporary file and returns its path.
    static func writeTemporaryFile(flagCount: Int) throws -> String {
        let path = NSTemporaryDirectory() + "flagstaff-bench-\(getpid())-\(flagCount).json"
        try JSONEncoder().encode(make(flagCount: flagCount)).write(to: URL(fileURLWithPath: path))
        return path
    }
}
