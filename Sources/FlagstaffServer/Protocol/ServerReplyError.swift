import FlagstaffServerBodies

/// A request refused with a reply.
package struct ServerReplyError: Error, Sendable {
    /// The reply to send.
    package var reply: ServerReply

    /// Wraps a reply.
    package init(_ reply: ServerReply) { self.reply = reply }

    /// A 400 reply saying what is wrong with the body.
    init(_ problem: RequestBody.Problem) {
        self.init(.error(400, problem.message))
    }
}

extension UnleashClientCall {
    /// Reads a register or metrics body (``init(reading:)``).
    /// - Throws: ``ServerReplyError`` 400 saying what is wrong.
    package init(body: [UInt8]) throws(ServerReplyError) {
        do throws(RequestBody.Problem) {
            try self.init(reading: body)
        } catch {
            throw ServerReplyError(error)
        }
    }
}

extension FrontendContextRequest {
    /// Reads a `POST /api/frontend` body (``init(reading:)``).
    /// - Throws: ``ServerReplyError`` 400 saying what is wrong.
    package init(body: [UInt8]) throws(ServerReplyError) {
        do throws(RequestBody.Problem) {
            try self.init(reading: body)
        } catch {
            throw ServerReplyError(error)
        }
    }
}
