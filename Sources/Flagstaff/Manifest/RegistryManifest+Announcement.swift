import Foundation

extension RegistryManifest {
    /// An announced manifest as JSON: beside the store, and as a linked app sends it to `flagstaff serve`.
    package func announcementJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
