import Hummingbird
import NIOCore

/// The request context of `flagstaff serve`: the framework's, and the connection, which the event streams need
/// (the client's address, closing a client that stops reading, noticing one that left).
struct FlagRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
