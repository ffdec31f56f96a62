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
        options.demo = words.contains("--demo")
        guard let loaded = try? RegistryLoader.load(options, store: .ignored) else { return [] }
        return loaded.registry.allFeatures.map(\.key).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The completion kind for the `VALUE` of `set`: `on`/`off`/`default` for a flag, an enum setting's cases and
    /// `default`, else `default` alone.
    static var valueKind: CompletionKind {
        .custom { words, _, prefix in values(words: words, prefix: prefix) }
    }

    /// The values offered for the `VALUE` of `set KEY`, the key being the first argument after `set` that is
    /// not an option; empty when the registry cannot be opened or the key is unknown.
    static func values(words: [String], prefix: String) -> [String] {
        guard let set = words.firstIndex(of: "set") else { return [] }
        let takesValue: Set<String> = ["--manifest", "--store", "--lock-timeout"]
        var index = words.index(after: set)
        var key: String?
        while index < words.count - 1, key == nil {
            let word = words[index]
            if takesValue.contains(word) {
                index += 2
                continue
            }
            if !word.hasPrefix("-") { key = word }
            index += 1
        }
        var options = RegistrySourceOptions()
        options.manifest = value(of: "--manifest", in: words)
        options.store = value(of: "--store", in: words)
        options.demo = words.contains("--demo")
        guard let key, let loaded = try? RegistryLoader.load(options, store: .ignored),
            let member = loaded.registry.feature(forKey: key)
        else { return [] }
        let offered: [String]
        switch member.settingType {
        case .boolean: offered = ["on", "off", "default"]
        case .choice(let names): offered = names + ["default"]
        default: offered = ["default"]
        }
        return offered.filter { $0.hasPrefix(prefix) }
    }

    private static func value(of option: String, in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == option, index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix(option + "=") { return String(word.dropFirst(option.count + 1)) }
        }
        return nil
    }
}
