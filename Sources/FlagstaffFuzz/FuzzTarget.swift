import Foundation

/// One fuzz target: a reader fed with arbitrary bytes, and the checks on what it returns.
///
/// A target returns normally when the reader behaved: it read a value (and, where a writer exists, read its own
/// output back to an equal value), or it threw an error that describes itself. Anything else is reported with
/// ``FuzzCheck/fail(_:)``, which aborts the process so libFuzzer saves the input.
struct FuzzTarget: Sendable {
    /// The name given on the command line (`store-file`).
    let name: String
    /// What it feeds and checks, for `FlagstaffFuzz list`.
    let summary: String
    /// Runs one input.
    let run: @Sendable (Data) -> Void

    /// Every target, in the order `.ci/run` runs them.
    static let all: [FuzzTarget] = [
        .storeFile, .storeWrite, .importFile, .profile, .bisectState, .journal, .manifest, .jsonValue, .launchOverrides,
        .times,
        .requestBodies, .unleashRegex, .unleashFeatures, .unleashClient, .serverSentEvents, .ofrepBulk, .firebaseFetch,
        .firebaseRealtime, .remoteFiles, .flagdDefinitions, .flagdRules,
    ]

    /// The target named `name`.
    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// The checks every target makes.
enum FuzzCheck {
    /// Reports a broken expectation and aborts (libFuzzer then saves the input as a crash).
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("FlagstaffFuzz: check failed: \(message)\n".utf8))
        abort()
    }

    /// Checks that a reader threw its documented error type, and that the error says what is wrong (a
    /// non-empty description).
    static func described<Expected: Error & CustomStringConvertible>(
        _ error: any Error, as expected: Expected.Type, by reader: String
    ) {
        guard let error = error as? Expected else {
            fail("\(reader) threw \(String(reflecting: error)), not a \(Expected.self)")
        }
        if error.description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            fail("\(reader) threw an error without a description: \(String(reflecting: error))")
        }
    }

    /// Checks that two values are equal (a round trip).
    static func equal<Value: Equatable>(_ read: Value, _ expected: Value, _ what: String) {
        if read != expected {
            fail("\(what): read back \(String(reflecting: read)), expected \(String(reflecting: expected))")
        }
    }

    /// The bytes as text, as an environment variable or argument would carry them (invalid UTF-8 repaired).
    static func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self)
    }
}

/// A folder of this process for targets whose reader takes a file (profiles, the journal), removed at exit: in
/// `/dev/shm` where there is one (the journal and profiles `fsync`, which costs milliseconds on a disk and nothing
/// in memory), else in the temporary folder.
enum FuzzScratch {
    /// The folder, created on first use.
    static let folder: URL = {
        var isFolder: ObjCBool = false
        let parent =
            FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder) && isFolder.boolValue
            ? URL(fileURLWithPath: "/dev/shm", isDirectory: true) : FileManager.default.temporaryDirectory
        let url = parent.appendingPathComponent(
            "flagstaff-fuzz-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            FuzzCheck.fail("cannot create the scratch folder \(url.path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(at: FuzzScratch.folder) }
        return url
    }()
}
