import Flagstaff
import FlagstaffFirebase
import FlagstaffRemote
import Foundation

/// The readers of what remote servers send: event streams (SSE), the OFREP bulk answer, Firebase's fetch answer
/// and its realtime stream.
extension FuzzTarget {
    /// ``ServerSentEventParser``: the same events and last event id whether the body arrives whole, a byte at a
    /// time or cut where the first byte says.
    static let serverSentEvents = FuzzTarget(
        name: "sse",
        summary: "text/event-stream reader (ServerSentEventParser), whole and in pieces"
    ) { data in
        let bytes = [UInt8](data)
        var whole = ServerSentEventParser()
        let expected = whole.feed(bytes)
        var single = ServerSentEventParser()
        var singly: [ServerSentEvent] = []
        for byte in bytes { singly += single.feed(CollectionOfOne(byte)) }
        FuzzCheck.equal(singly, expected, "SSE events read a byte at a time")
        FuzzCheck.equal(single.lastEventID, whole.lastEventID, "SSE last event id read a byte at a time")
        var halves = ServerSentEventParser()
        let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        let split = halves.feed(bytes[..<cut]) + halves.feed(bytes[cut...])
        FuzzCheck.equal(split, expected, "SSE events read in two pieces cut at \(cut)")
        FuzzCheck.equal(halves.retryMilliseconds, whole.retryMilliseconds, "SSE retry read in two pieces")
    }

    /// ``OFREPBulkAnswer/read(_:baseURL:)``: an answer, or an ``OFREPAnswerError`` that says what is wrong; every
    /// event stream it offers is an HTTP(S) URL. Its one pass accepts exactly the texts the tree reader
    /// (`JSONValue.read`) accepts, and keeps one flag per distinct key.
    static let ofrepBulk = FuzzTarget(
        name: "ofrep-bulk",
        summary: "OFREP bulk evaluation answer (OFREPBulkAnswer.read)"
    ) { data in
        let base = URL(string: "http://127.0.0.1:8080/base/") ?? URL(fileURLWithPath: "/")
        let tree = try? JSONValue.read(data)
        do {
            let answer = try OFREPBulkAnswer.read(data, baseURL: base)
            for url in answer.eventStreams where !["http", "https"].contains(url.scheme?.lowercased() ?? "") {
                FuzzCheck.fail("OFREPBulkAnswer offered a stream that is not HTTP(S): \(url)")
            }
            guard case .array(let flags)? = tree?["flags"] else {
                FuzzCheck.fail("OFREPBulkAnswer read a body whose tree has no flags array")
            }
            let keys = Set(flags.compactMap { $0["key"]?.stringValue })
            FuzzCheck.equal(Set(answer.flags.keys), keys, "OFREP bulk answer keys")
        } catch {
            FuzzCheck.described(error, as: OFREPAnswerError.self, by: "OFREPBulkAnswer.read")
            let notJSON = "\(error)".hasPrefix("the body is not JSON")
            FuzzCheck.equal(notJSON, tree == nil, "OFREP bulk answer refused as not JSON where the tree reader agrees")
        }
    }

    /// ``FirebaseFetchResponseParser``: a 200 JSON answer is read or refused with a described provider error.
    static let firebaseFetch = FuzzTarget(
        name: "firebase-fetch",
        summary: "Firebase Remote Config fetch answer (FirebaseFetchResponseParser.parse)"
    ) { data in
        for status in [200, 400] {
            do {
                _ = try FirebaseFetchResponseParser.parse(
                    status: status, headers: ["Content-Type": "application/json; charset=utf-8", "ETag": "e"],
                    body: data, maximumBytes: 1 << 20)
            } catch {
                FuzzCheck.described(error, as: RemoteConfigProviderError.self, by: "FirebaseFetchResponseParser")
            }
        }
    }

    /// ``FirebaseRealtimeMessageReader``: the same events whole, a byte at a time or cut where the first byte says.
    static let firebaseRealtime = FuzzTarget(
        name: "firebase-realtime",
        summary: "Firebase realtime stream framing and messages (FirebaseRealtimeMessageReader), whole and in pieces"
    ) { data in
        var whole = FirebaseRealtimeMessageReader()
        let expected = whole.append(data).map { String(describing: $0) }
        var single = FirebaseRealtimeMessageReader()
        var singly: [String] = []
        for index in data.indices { singly += single.append(data[index...index]).map { String(describing: $0) } }
        FuzzCheck.equal(singly, expected, "Firebase realtime events read a byte at a time")
        var halves = FirebaseRealtimeMessageReader()
        let cut = data.startIndex + (data.isEmpty ? 0 : Int(data[data.startIndex]) % (data.count + 1))
        let split = (halves.append(data[..<cut]) + halves.append(data[cut...])).map { String(describing: $0) }
        FuzzCheck.equal(split, expected, "Firebase realtime events read in two pieces")
    }
}

/// The remote-config files: what `RemoteConfig` persists, a defaults file and a value's JSON.
extension FuzzTarget {
    /// ``RemoteConfigStorage/load()`` of the input as `fetched.json` and as `metadata.json`, and
    /// `RemoteConfig.setDefaults(fromJSONFile:)` and `RemoteConfigValue.jsonValue` of it. What loads is written
    /// back by the storage's writer and reads back equal.
    static let remoteFiles = FuzzTarget(
        name: "remote-files",
        summary: "remote-config storage files (RemoteConfigStorage.load), defaults file, RemoteConfigValue.jsonValue"
    ) { data in
        let storage = RemoteConfigStorage(directory: FuzzScratch.folder.appendingPathComponent("remote-files"))
        do {
            try FileManager.default.createDirectory(at: storage.directory, withIntermediateDirectories: true)
            try data.write(to: storage.fetchedURL)
            try data.write(to: storage.metadataURL)
        } catch {
            FuzzCheck.fail("cannot write the scratch files: \(error)")
        }
        let snapshot = storage.load()
        for problem in snapshot.problems { FuzzCheck.described(problem, as: RemoteConfigError.self, by: "load") }
        do {
            if let fetched = snapshot.fetched {
                try storage.write(fetched, to: storage.fetchedURL)
            } else {
                try storage.remove(storage.fetchedURL)
            }
            try storage.write(snapshot.metadata, to: storage.metadataURL)
        } catch {
            FuzzCheck.fail("the storage cannot write what it read: \(error)")
        }
        let again = storage.load()
        FuzzCheck.equal(again.problems.map(\.description), [], "problems reading what the storage wrote")
        FuzzCheck.equal(again.fetched, snapshot.fetched, "fetched config written and read back")
        // Times are seconds since 1970 and `Date` counts from 2001: the first write may move one by its last bit,
        // the second must not.
        do { try storage.write(again.metadata, to: storage.metadataURL) } catch {
            FuzzCheck.fail("the storage cannot write what it read: \(error)")
        }
        FuzzCheck.equal(storage.load().metadata, again.metadata, "metadata written and read back")

        let config = remoteConfig
        let defaults = storage.directory.appendingPathComponent("defaults.json")
        do {
            try data.write(to: defaults)
            try config.setDefaults(fromJSONFile: defaults)
        } catch {
            FuzzCheck.described(error, as: RemoteConfigError.self, by: "setDefaults(fromJSONFile:)")
        }
        _ = RemoteConfigValue(data: data, source: .remote).jsonValue
    }
}

extension FuzzTarget {
    /// The config `remote-files` sets defaults on (its provider is never asked).
    fileprivate static let remoteConfig = RemoteConfig(provider: FuzzNoProvider())
}

/// A provider that is never asked: `remote-files` only sets defaults.
private struct FuzzNoProvider: RemoteConfigProvider {
    var name: String { "fuzz" }
    var deviceContext: [String: String] { [:] }

    func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError)
        -> RemoteConfigFetchResponse
    {
        RemoteConfigFetchResponse(content: .unchanged)
    }
}
