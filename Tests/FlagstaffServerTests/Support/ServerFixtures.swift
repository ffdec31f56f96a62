import Flagstaff
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A registry with one member of every type, from a manifest.
enum ServedFixtures {
    static let manifest = """
        {"name": "Served",
         "flags": [{"key": "blueText", "description": "Blue text"},
                   {"key": "debugLogging", "default": true}],
         "settings": [
           {"key": "cardColor", "type": "string", "default": "#f05138", "description": "Card background"},
           {"key": "maxItems", "type": "integer", "default": 20, "range": [1, 100]},
           {"key": "ratio", "type": "double", "default": 2},
           {"key": "theme", "type": "choice", "choices": ["light", "dark", "system"], "default": "system"},
           {"key": "compact", "type": "boolean", "default": true},
           {"key": "config", "type": "json", "default": {"columns": 3, "title": "Hi"}}]}
        """

    static func registry(store: any OverrideStore = InMemoryOverrideStore()) throws -> AnyFeatureRegistry {
        let manifest = try RegistryManifest.decode(Data(manifest.utf8), source: "served.json")
        return try AnyFeatureRegistry(
            manifest: manifest, store: store, options: RegistryOptions(storeWatchInterval: nil))
    }

    static func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }
}

/// A `FlagServer` listening on 127.0.0.1 and an ephemeral port, stopped by ``stop()``.
final class RunningServer: Sendable {
    let server: FlagServer
    let port: Int
    private let task: Task<Void, any Error>
    private let group: ServiceGroup

    init(registry: AnyFeatureRegistry, configuration: FlagServerConfiguration = FlagServerConfiguration(port: 0))
        async throws
    {
        var configuration = configuration
        configuration.port = 0
        var logger = Logger(label: "flagstaff.serve.test")
        logger.logLevel = .critical
        let server = FlagServer(registry: registry, configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let group = server.makeServiceGroup { continuation.yield($0) }
        self.task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw FlagServerError("the server did not start") }
        self.server = server
        self.port = port
        self.group = group
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}

/// One HTTP exchange with URLSession.
struct HTTPExchange {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    static func send(
        _ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil
    ) async throws -> HTTPExchange {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return HTTPExchange(status: http.statusCode, headers: fields, body: data)
    }
}
