import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff export`: the registry's overrides (flags and typed settings), for saving and `import`, or a readable
/// summary.
struct ExportCommand: ParsableCommand {
    /// The output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// The override store format, restricted to this registry's flags and settings:
        /// `{"version":1,"overrides":{…}}`, written as the store writes its file.
        case json
        /// One line per flag or setting: `List → Infinite Scroll [ON by override]`, `Max Items [50 by override]`.
        case text
    }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the registry's overrides as JSON (for import), or every flag's and setting's value as text.",
        discussion: """
            json (default): the override store format, {"version":1,"overrides":{"key":"on","maxItems":50}}, \
            holding the overrides of this registry's flags and settings only; `flagstaff import` and --store \
            accept it. text: one line per flag or setting, 'Group → Label [ON by override]'.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Option(help: "json or text.")
    var format: Format = .json

    func run() throws {
        let registry = try RegistryLoader.load(source).registry
        switch format {
        case .json:
            var overrides: [String: OverrideValue] = [:]
            for feature in registry.allFeatures {
                if let value = feature.overrideValue, overrides[feature.key] == nil { overrides[feature.key] = value }
            }
            let document = String(decoding: OverrideFileFormat.encode(overrides), as: UTF8.self)
            StandardStreams.write(JSONOutput.terminalSafe(document))
        case .text:
            for feature in registry.allFeatures {
                let resolution = feature.explanation
                StandardStreams.out(
                    "\(SourceText.labelPath(feature)) [\(ValueText.shown(resolution.value, of: feature)) \(SourceText.byPhrase(resolution.source))]"
                )
            }
        }
    }
}
