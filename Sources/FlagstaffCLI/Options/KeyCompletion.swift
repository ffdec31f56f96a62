import ArgumentParser
import Flagstaff
import Foundation

/// Shell completion of flag keys: the keys of the registry named by `--manifest` on the line being
/// completed (or `FLAGSTAFF_MANIFEST`, or the demo registry) that start with the typed prefix.
enum KeyCompletion {
    /// The completion kind for `KEY` arguments.
    static var kind: CompletionKind {
        .custom { words, _, prefix in keys(words: words, prefix: prefix) }
    }

    /// The matching keys, sorted; empty when the registry cannot be opened (completion must never fail loudly).
    static func keys(words: [String], prefix: String) -> [String] {
        var options = RegistrySourceOptions()
        options.manifest = value(of: "--manifest", in: words)
        options.store = value(of: "--store", in: words)
        guard let loaded = try? RegistryLoader.load(options, store: .ignored) else { return [] }
        return loaded.registry.allFeatures.map(\.key).filter { $0.hasPrefix(prefix) }.sorted()
    }

    private static func value(of option: String, in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == option, index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix(option + "=") { return String(word.dropFirst(option.count + 1)) }
        }
        return nil
    }
}
