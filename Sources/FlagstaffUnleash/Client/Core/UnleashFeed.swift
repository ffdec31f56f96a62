import Flagstaff
import FlagstaffRemote
import Foundation

/// What tells the two clients' polling apart: what is requested and how an answer becomes what the client serves.
struct UnleashFeed<Model: Sendable, Answer: Sendable>: Sendable {
    /// The endpoint named in errors (without the frontend client's query).
    var endpoint: @Sendable () -> URL
    /// The URL polled for the current model.
    var url: @Sendable (Model) -> URL
    /// Reads an HTTP 200 body, outside the lock. Throws ``UnleashClientError/invalidResponse(_:)`` naming the
    /// source (the second argument) for a bad body.
    var decode: @Sendable (Data, String) throws(UnleashClientError) -> Answer
    /// Installs an answer into the model, under the lock (keep it short).
    /// - Returns: The names of what changed, sorted.
    var install: @Sendable (inout Model, Answer) -> [String]
    /// The bytes persisted for the model after an answer was installed, and the answer's body.
    var snapshot: @Sendable (Model, Data) throws(UnleashClientError) -> Data
    /// Called with a status other than 200 and 304; `true` when the feed switched to another endpoint and the
    /// fetch should be sent again at once (the server client leaving the delta API), `false` for a failure.
    var fallBack: @Sendable (Int) -> Bool = { _ in false }
}
