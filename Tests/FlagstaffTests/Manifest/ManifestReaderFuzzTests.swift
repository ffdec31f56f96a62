import FlagstaffTestSupport
import Foundation
import Testing

@testable import Flagstaff

/// Differential tests of `ManifestReader` against `JSONDecoder` (the `Decodable` conformances): random valid
/// manifests written with random formatting and escapes, and random byte-level mutations of them.
@Suite struct ManifestReaderFuzzTests {
    @Test func randomValidManifestsDecodeAsWithJSONDecoder() throws {
        var random = SeededRandom(seed: 0x5EED_F1A6)
        var settingTypes: Set<String> = []
        for round in 0..<300 {
            var writer = RandomManifestWriter(random: random)
            let data = Data(writer.manifest().utf8)
            random = writer.random
            let theirs = try JSONDecoder().decode(RegistryManifest.self, from: data)
            let ours = try RegistryManifest.decode(data, source: "round-\(round).json")
            #expect(ours == theirs, "round \(round): \(String(decoding: data, as: UTF8.self))")
            settingTypes.formUnion(ours.settings.map(\.type.name))
        }
        #expect(settingTypes.count == 6, "settings of every type were read: \(settingTypes)")
    }

    @Test func mutatedManifestsReturnOrThrowManifestErrorsNeverTrap() throws {
        var random = SeededRandom(seed: 0xBAD_B17E5)
        let interesting: [UInt8] = [
            0x00, 0x09, 0x0A, 0x20, 0x22, 0x2C, 0x2D, 0x2E, 0x30, 0x31, 0x3A, 0x5B, 0x5C, 0x5D,
            0x65, 0x66, 0x6E, 0x74, 0x75, 0x7B, 0x7D, 0x80, 0xBF, 0xC0, 0xC3, 0xED, 0xEF, 0xF0, 0xF4, 0xFF,
        ]
        var accepted = 0
        for round in 0..<300 {
            var writer = RandomManifestWriter(random: random)
            let original = Array(writer.manifest().utf8)
            random = writer.random
            for _ in 0..<4 {
                var bytes = original
                for _ in 0...Int.random(in: 0...2, using: &random) {
                    mutate(&bytes, interesting: interesting, using: &random)
                }
                let data = Data(bytes)
                do {
                    let ours = try RegistryManifest.decode(data, source: "mutant.json")
                    // Ours is the stricter reader: whatever it accepts, JSONDecoder reads the same way.
                    let theirs = try? JSONDecoder().decode(RegistryManifest.self, from: data)
                    #expect(theirs == ours, "round \(round): \(bytes)")
                    accepted += 1
                } catch let error as ManifestError {
                    #expect(error.source == "mutant.json")
                    #expect(error.path?.hasPrefix("$") == true, "\(error)")
                    #expect(!error.message.isEmpty)
                } catch {
                    Issue.record("round \(round): not a ManifestError: \(error)")
                }
            }
        }
        #expect(accepted > 0, "some mutations (e.g. in whitespace or string contents) keep a manifest valid")
    }

    private func mutate(_ bytes: inout [UInt8], interesting: [UInt8], using random: inout SeededRandom) {
        guard !bytes.isEmpty else { return }
        let position = Int.random(in: 0..<bytes.count, using: &random)
        let value =
            Bool.random(using: &random)
            ? interesting.randomElement(using: &random) ?? 0 : UInt8.random(in: 0...255, using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: bytes[position] = value
        case 1: bytes.remove(at: position)
        case 2: bytes.insert(value, at: position)
        case 3: bytes.removeSubrange(position...)
        default:
            let length = Int.random(in: 1...min(12, bytes.count - position), using: &random)
            let target = Int.random(in: 0...bytes.count, using: &random)
            bytes.insert(contentsOf: bytes[position..<(position + length)], at: target)
        }
    }
}

/// Writes random valid manifests as JSON text: random field order, whitespace, escapes, `null`s, unicode,
/// nested groups, every kind, settings of every type and a remote section with every kind of default.
struct RandomManifestWriter {
    var random: SeededRandom
    private var flagCount = 0

    init(random: SeededRandom) { self.random = random }

    mutating func manifest() -> String {
        // A name that can name a store file: not empty, `.` or `..`, no path separators.
        var fields = [field("name") + string("n" + randomText().filter { $0 != "/" && $0 != "\\" })]
        if chance(0.7) { fields.append(field("flags") + orNull(array((0..<int(0...3)).map { _ in flag() }))) }
        if chance(0.7) { fields.append(field("groups") + orNull(array((0..<int(0...3)).map { _ in group(depth: 0) }))) }
        if chance(0.3) { fields.append(field("remote") + orNull(remote())) }
        if chance(0.5) { fields.append(field("settings") + orNull(array((0..<int(0...3)).map { _ in setting() }))) }
        return space() + object(fields) + space()
    }

    private mutating func group(depth: Int) -> String {
        var fields = [field("key") + string("g" + String(int(0...99)) + (chance(0.2) ? "é" : ""))]
        if chance(0.4) { fields.append(field("label") + orNull(string(randomText()))) }
        if chance(0.4) { fields.append(field("description") + orNull(string(randomText()))) }
        if chance(0.8) { fields.append(field("flags") + orNull(array((0..<int(0...3)).map { _ in flag() }))) }
        if depth < 3 && chance(0.4) {
            fields.append(field("groups") + orNull(array((0..<int(0...2)).map { _ in group(depth: depth + 1) })))
        }
        return object(fields)
    }

    private mutating func flag() -> String {
        flagCount += 1
        var fields = [field("key") + string("f\(flagCount)." + randomText(letters: true))]
        if chance(0.4) { fields.append(field("label") + orNull(string(randomText()))) }
        if chance(0.6) { fields.append(field("description") + orNull(string(randomText()))) }
        if chance(0.6) { fields.append(field("default") + orNull(chance(0.5) ? "true" : "false")) }
        if chance(0.4) { fields.append(field("requiresRestart") + orNull(chance(0.5) ? "true" : "false")) }
        let kind = FeatureKind.allCases.randomElement(using: &random) ?? .static
        if kind == .buildTarget {
            fields.append(field("kind") + string(kind.rawValue))
            fields.append(
                field("enabledIn") + array(BuildTarget.allCases.filter { _ in chance(0.5) }.map { string($0.rawValue) })
            )
        } else if chance(0.5) {
            fields.append(field("kind") + orNull(string(kind.rawValue)))
            if chance(0.2) { fields.append(field("enabledIn") + "null") }
        }
        if kind == .remote && chance(0.5) {
            fields.append(field("remoteKey") + orNull(string(randomText(letters: true))))
        }
        return object(fields)
    }

    /// A valid setting of a random type: a default of the type (within the range, one of the choices),
    /// random optional fields and, for JSON settings, a random nested value.
    private mutating func setting() -> String {
        flagCount += 1
        var fields = [field("key") + string("s\(flagCount)." + randomText(letters: true))]
        if chance(0.4) { fields.append(field("label") + orNull(string(randomText()))) }
        if chance(0.4) { fields.append(field("description") + orNull(string(randomText()))) }
        if chance(0.4) { fields.append(field("requiresRestart") + orNull(chance(0.5) ? "true" : "false")) }
        if chance(0.4) { fields.append(field("remoteKey") + orNull(string("r" + randomText()))) }
        switch int(0...5) {
        case 0:
            fields.append(field("type") + string("boolean"))
            fields.append(field("default") + (chance(0.5) ? "true" : "false"))
        case 1:
            fields.append(field("type") + string("string"))
            fields.append(field("default") + string(randomText()))
        case 2:
            fields.append(field("type") + string("integer"))
            let value = int(-50...50)
            fields.append(field("default") + [String(value), "\(value).0", "\(value)e0"][int(0...2)])
            if chance(0.5) {
                fields.append(field("range") + orNull(array([String(value - int(0...9)), String(value + int(0...9))])))
            }
        case 3:
            fields.append(field("type") + string("double"))
            let value = ["0", "-0", "1.5", "2.5E-3", "1e2", "0.1", "-7.25"].randomElement(using: &random) ?? "0"
            fields.append(field("default") + value)
            if chance(0.5) { fields.append(field("range") + orNull(array(["-100", chance(0.5) ? "100" : "1e3"]))) }
        case 4:
            fields.append(field("type") + string("choice"))
            let choices = (0..<int(1...4)).map { "c\($0)" + randomText() }
            fields.append(field("choices") + array(choices.map { string($0) }))
            fields.append(field("default") + string(choices.randomElement(using: &random) ?? "c0"))
        default:
            fields.append(field("type") + string("json"))
            fields.append(field("default") + jsonValue(depth: 0))
        }
        return object(fields)
    }

    private mutating func jsonValue(depth: Int) -> String {
        switch int(0...(depth < 3 ? 6 : 4)) {
        case 0: return "null"
        case 1: return chance(0.5) ? "true" : "false"
        case 2:
            return ["0", "-0", "1", "1.5", "2.5E-3", "1e2", "12345678901234567890"].randomElement(using: &random) ?? "0"
        case 3, 4: return string(randomText())
        case 5: return array((0..<int(0...3)).map { _ in jsonValue(depth: depth + 1) })
        default:
            let members = (0..<int(0...3)).map { index in
                string("m\(index)" + randomText()) + colon() + jsonValue(depth: depth + 1)
            }
            return object(members)
        }
    }

    private mutating func remote() -> String {
        var fields = [field("provider") + string(chance(0.5) ? "firebase" : "unleash")]
        for name in ["projectID", "apiKey", "appID", "baseURL", "namespace"] where chance(0.4) {
            fields.append(field(name) + orNull(string(randomText())))
        }
        let numbers = [
            "0", "-0", "3600", "1.5", "2.5E-3", "1e2", "0.1", "12345678901234567890", "5e-324",
            "1.7976931348623157e308",
        ]
        if chance(0.6) {
            let number = numbers.filter { !$0.hasPrefix("-") }.randomElement(using: &random) ?? "0"
            fields.append(field("minimumFetchInterval") + orNull(number))
        }
        if chance(0.6) {
            let values = (0..<int(0...4)).map { index -> String in
                let value: String
                switch int(0...2) {
                case 0: value = chance(0.5) ? "true" : "false"
                case 1: value = numbers.randomElement(using: &random) ?? "0"
                default: value = string(randomText())
                }
                return string("k\(index)" + (chance(0.3) ? ".x" : "")) + colon() + value
            }
            fields.append(field("defaults") + orNull(object(values)))
        }
        return object(fields)
    }

    // MARK: Text

    private mutating func randomText(letters: Bool = false) -> String {
        let pool: [Character] =
            letters
            ? ["a", "b", "Z", "_", "-", "é", "日", "😀"]
            : [
                "a", "b", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "é", "日", "😀", "\u{2028}", "\u{FFFF}",
                "{", "]",
            ]
        return String((0..<int(0...8)).map { _ in pool.randomElement(using: &random) ?? "a" })
    }

    /// A JSON string with each character written raw, as a short escape or as `\u` escapes at random.
    private mutating func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            let short: String? =
                switch scalar {
                case "\"": "\\\""
                case "\\": "\\\\"
                case "\n": "\\n"
                case "\t": "\\t"
                case "/": chance(0.5) ? "\\/" : nil
                default: nil
                }
            let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            if let short, chance(0.7) {
                out += short
            } else if mustEscape || chance(0.2) {
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16, uppercase: chance(0.5))
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private mutating func object(_ fields: [String]) -> String {
        "{" + space() + fields.shuffled(using: &random).joined(separator: space() + "," + space()) + space() + "}"
    }

    private mutating func array(_ elements: [String]) -> String {
        "[" + space() + elements.joined(separator: space() + "," + space()) + space() + "]"
    }

    private mutating func orNull(_ value: String) -> String { chance(0.15) ? "null" : value }
    private mutating func field(_ name: String) -> String { string(name) + colon() }
    private mutating func colon() -> String { space() + ":" + space() }
    private mutating func space() -> String { ["", "", " ", "\n  ", "\t", "\r\n"].randomElement(using: &random) ?? "" }
    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }
    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
}
