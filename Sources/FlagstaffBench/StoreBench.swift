import Flagstaff
import Foundation

/// `flagstaff-bench store`: a file store's share of a bulk change at 100,000 keys — one write setting every key
/// (journaled), split into the file format's decode and encode, and the journal's encode.
enum StoreBench {
    static func run(keyCount: Int = 100_000) {
        print("== store: \(keyCount) keys ==")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flagstaff-store-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let keys = (0..<keyCount).map { "group\($0 % 100).sub\($0 % 7).flag_\($0)" }
        let clock = ContinuousClock()
        guard
            let store = try? FileOverrideStore(
                url: directory.appendingPathComponent("overrides.json"),
                journal: JournalOptions(maxBytes: 256 << 20, origin: .console))
        else { return print("store: cannot create the store") }
        for round in 0..<4 {
            let value: OverrideValue = round.isMultiple(of: 2) ? .off : .on
            let changes = Dictionary(uniqueKeysWithValues: keys.map { ($0, OverrideEdit.set(value)) })
            let write = clock.measure { _ = try? store.write(OverrideChange(changes)) }
            print("write setting every key (round \(round)): \(format(write))")
        }
        guard let data = try? Data(contentsOf: store.url) else { return print("store: cannot read the file back") }
        var contents: OverrideFileFormat.Contents?
        let decode = clock.measure {
            contents = try? OverrideFileFormat.decodeContents(data, file: "bench", rules: .store)
        }
        var encoded = Data()
        let encode = clock.measure { encoded = OverrideFileFormat.encode(contents?.overrides ?? [:]) }
        print(
            "  file of \(data.count / 1024) KB: decode \(format(decode)); encode \(format(encode)) (\(encoded.count) bytes)"
        )
    }

    private static func format(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f ms", ms)
    }
}
