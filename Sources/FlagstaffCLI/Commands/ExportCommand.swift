import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff export`: the registry's overrides, for saving and `import`, or a readable summary.
struct ExportCommand: ParsableCommand {
    /// The output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// The override store format, restricted to this registry's flags: `{"version":1,"overrides":{…}}`,
        /// written as the store writes its file.
        case json
        /// One line per flag: `List → Infinite Scroll [ON by override]`.
        case text
    }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the registry's overrides as JSON (for import), or every flag's value as text.",
        discussion: """
            json (default): the override store format, {"version":1,"overrides":{"key":"on"}}, holding the \
            overrides of this registry's flags only; `flagstaff import` and --store accept it. \
            text: one line per flag, 'Group → Label [ON by override]'.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Option(help: "json or text.")
    var format: Format = .json

    func run() throws {
        let registry = try RegistryLoader.load(source).registry
        switch format {
        case .json:
            let overrides = Dictionary(registry.overriddenFeatures.map { ($0.key, $0.override) }) { first, _ in first }
            let document = String(decoding: OverrideFileFormat.encode(overrides), as: UTF8.self)
            StandardStreams.write(JSONOutput.terminalSafe(document))
        case .text:
            for feature in registry.allFeatures {
                let resolution = feature.resolution
                StandardStreams.out(
                    "\(SourceText.labelPath(feature)) [\(SourceText.value(resolution.value)) \(SourceText.byPhrase(resolution.source))]"
                )
            }
        }
    }
}
