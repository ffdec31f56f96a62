import Foundation

/// Toggles an ``UnleashClient`` serves before its first fetch, and keeps serving while fetches fail.
///
/// Build one from a list of toggles, or from a JSON document in the frontend API's response shape
/// (`{"toggles":[…]}`), for example a file shipped with the app. A bootstrap is used only when no
/// last-known-good toggles were persisted: toggles this device fetched are newer than a file built into the app.
public struct UnleashBootstrap: Sendable, Hashable {
    /// The toggles, in order.
    public var toggles: [UnleashToggle]

    /// A bootstrap from a list of toggles.
    /// - Parameter toggles: The toggles.
    /// - Returns: The bootstrap.
    public static func toggles(_ toggles: [UnleashToggle]) -> UnleashBootstrap {
        UnleashBootstrap(toggles: toggles)
    }

    /// A bootstrap from JSON text in the frontend API's response shape.
    /// - Parameters:
    ///   - data: UTF-8 JSON, `{"toggles":[…]}`.
    ///   - source: A name for messages (a file path).
    /// - Returns: The bootstrap.
    /// - Throws: ``UnleashClientError/invalidBootstrap(_:)`` naming the source and the JSON path of the problem.
    public static func json(_ data: Data, source: String = "bootstrap JSON") throws(UnleashClientError)
        -> UnleashBootstrap
    {
        do {
            return UnleashBootstrap(toggles: try UnleashTogglesDocument.decode(data, source: source))
        } catch {
            if error.isInvalidResponse { throw .invalidBootstrap(error.message) }
            throw error
        }
    }

    /// A bootstrap read from a JSON file in the frontend API's response shape.
    /// - Parameter url: The file.
    /// - Returns: The bootstrap.
    /// - Throws: ``UnleashClientError/invalidBootstrap(_:)`` naming the file when it cannot be read or is invalid.
    public static func file(_ url: URL) throws(UnleashClientError) -> UnleashBootstrap {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .invalidBootstrap("\(url.path): cannot read the file: \((error as NSError).localizedDescription)")
        }
        return try json(data, source: url.path)
    }
}
