import Flagstaff
import FlagstaffRemote
import Foundation

/// One fetch of flag definitions over HTTP, as flagd's HTTP sync does it: `GET` with `If-None-Match`.
struct FlagdHTTPFetch: Sendable {
    /// What a fetch gave.
    enum Outcome {
        /// `304 Not Modified`: the definitions did not change.
        case notModified
        /// New definitions, with the answer's `ETag`.
        case definitions(FlagdDefinitions, etag: String?)
        /// Why there are none (the address, and the status, the transport's error or the definitions' error).
        case failure(String)
    }

    /// The largest definitions document taken.
    static let limit = 64 << 20

    let url: URL
    let headers: [String: String]
    let timeout: Duration
    let transport = RemoteHTTPTransport(label: "flagstaff.flagd", maximumResponseBytes: limit)

    /// Fetches once.
    func fetch(etag: String?, bucketing: FlagdBucketing) async -> Outcome {
        var fields = [(name: "Accept", value: "application/json")]
        fields += headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        if let etag { fields.append((name: "If-None-Match", value: etag)) }
        let request = RemoteHTTPRequest(method: "GET", url: url, headers: fields)
        switch await transport.send(request, timeout: timeout) {
        case .failure(let error):
            return .failure("\(url.absoluteString): \(error)")
        case .success(let response):
            if response.status == 304 { return .notModified }
            guard response.status == 200 else {
                return .failure("\(url.absoluteString): HTTP status \(response.status)")
            }
            do throws(FlagdDefinitionsError) {
                let definitions = try FlagdDefinitions(
                    json: response.body, source: url.absoluteString, bucketing: bucketing)
                return .definitions(definitions, etag: response.header("ETag"))
            } catch {
                return .failure(error.description)
            }
        }
    }
}
