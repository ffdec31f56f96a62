import Foundation
import Testing

@testable import Flagstaff

/// Members named twice in one JSON object, and registry names that cannot name a store file: both are
/// errors when the manifest is read, naming the JSON path.
@Suite struct ManifestHardeningTests {
    static let duplicates: [(json: String, path: String, member: String)] = [
        (#"{"name":"first","name":"second"}"#, "$.name", "name"),
        (#"{"name":"x","flags":[{"key":"a","default":true,"default":false}]}"#, "$.flags[0].default", "default"),
        (#"{"name":"x","groups":[{"key":"g","flags":[{"key":"a","key":"b"}]}]}"#, "$.groups[0].flags[0].key", "key"),
        (#"{"name":"x","flags":[],"flags":[]}"#, "$.flags", "flags"),
        (#"{"name":"x","remote":{"provider":"p","defaults":{"k":1,"k":null}}}"#, "$.remote.defaults.k", "k"),
        (#"{"name":"x","remote":{"provider":"p","provider":"q"}}"#, "$.remote.provider", "provider"),
        // Inside a value that is skipped (a type mismatch is reported after its whole value is checked).
        (#"{"name":{"a":1,"b":{"c":2,"c":3}}}"#, "$.name.b.c", "c"),
    ]

    @Test(arguments: 0..<duplicates.count)
    func aMemberNamedTwiceIsAnErrorWithItsPath(index: Int) {
        let duplicate = Self.duplicates[index]
        let error = #expect(throws: ManifestError.self) {
            try RegistryManifest.decode(Data(duplicate.json.utf8), source: "dup.json")
        }
        #expect(error?.source == "dup.json")
        #expect(error?.path == duplicate.path, "\(String(describing: error))")
        #expect(
            error?.message.contains("duplicate member \"\(duplicate.member)\"") == true, "\(String(describing: error))")
    }

    static let badNames: [(name: String, message: String)] = [
        ("", "non-empty registry name"),
        (".", "cannot name a store file"),
        ("..", "cannot name a store file"),
        (String(repeating: "n", count: 201), "201 bytes long; at most 200 bytes"),
        (String(repeating: "é", count: 101), "202 bytes long"),
        ("a/b", "path separator"),
        ("../../etc/x", "path separator"),
        ("a\\b", "path separator"),
    ]

    @Test(arguments: 0..<badNames.count)
    func aNameThatCannotNameAFileIsRefused(index: Int) throws {
        let bad = Self.badNames[index]
        let json = try JSONEncoder().encode(["name": bad.name])
        let error = #expect(throws: ManifestError.self) { try RegistryManifest.decode(json, source: "m.json") }
        #expect(error?.path == "$.name", "\(String(describing: error))")
        #expect(error?.message.contains(bad.message) == true, "\(String(describing: error))")
    }

    @Test func namesUpToTheLimitWithDotsAndSpacesAreAccepted() throws {
        for name in [String(repeating: "n", count: 200), "My app.v2", "...", "é日本"] {
            let json = try JSONEncoder().encode(["name": name])
            #expect(try RegistryManifest.decode(json).name == name)
        }
    }
}
