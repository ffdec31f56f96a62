import Flagstaff
import FlagstaffRemote
import Foundation

/// What tells the two clients' polling apart: what is requested and how an answer becomes what the client serves.
struct UnleashFeed<Model: Sendable, Answer: Sendable>: Sendable {
    /// The endpoint named in errors (without the frontend client's query).
    var endpoint: URL
    /// The URL polled for the current model.
    var url: @Sendable (Model) -> URL
    /// Reads an HTTP 200 body, outside the lock. Throws ``UnleashClientError/invalidResponse(_:)`` naming the
    /// source (the second argument) for a bad body.
    var decode: @Sendable (Data, String) throws(UnleashClientError) -> Answer
    /// Installs an answer into the model, under the lock (keep it short).
    /// - Returns: The names of what changed, sorted.
    var install: @Sendable (inout Model, Answer) -> [String]
    /// The bytes persisted for an answer and its body.
    var snapshot: @Sendable (Answer, Data) throws(UnleashClientError) -> Data
}
