import ArgumentParser
import Flagstaff

/// `flagstaff manifest`: the registry described as a manifest.
struct ManifestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Print the registry's manifest (JSON), e.g. to save the demo registry and edit it.",
        discussion: "The output can be given back with --manifest. The override store is not read.")

    @OptionGroup var source: RegistrySourceOptions

    func run() throws {
        let loaded = try RegistryLoader.load(source, store: .ignored)
        var manifest = loaded.registry.manifest()
        manifest.remote =
            loaded.manifest == nil && loaded.manifestPath == nil
            ? DemoFeatures.remoteDescription : loaded.manifest?.remote
        try JSONOutput.print(manifest)
    }
}
