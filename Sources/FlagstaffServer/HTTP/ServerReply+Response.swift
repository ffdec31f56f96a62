import HTTPTypes
import Hummingbird

extension ServerReply {
    /// The reply as a Hummingbird response: JSON content type when there is a body, the ETag, and
    /// `Cache-Control: no-cache` so caches revalidate. A 413 closes the connection (`Connection: close`, done by
    /// ``CloseAfterResponseHandler``): the rest of a body too large is not read.
    var response: Response {
        var headers = HTTPFields()
        if !body.isEmpty || buffer != nil || stream != nil { headers[.contentType] = "application/json; charset=utf-8" }
        if let etag {
            headers[.eTag] = etag
            // A snapshot's body may be sent compressed or not: caches must key it by Accept-Encoding too.
            headers[.vary] = "Accept-Encoding"
        }
        if let contentEncoding { headers[.contentEncoding] = contentEncoding }
        headers[.cacheControl] = "no-cache"
        if status == 413 { headers[.connection] = "close" }
        // Hummingbird's CORS middleware names exposed headers only in preflight answers; browsers read them here.
        headers[.accessControlExposeHeaders] = "ETag"
        guard let stream else {
            return Response(
                status: HTTPResponse.Status(code: status), headers: headers,
                body: ResponseBody(byteBuffer: buffer ?? ByteBuffer(bytes: body)))
        }
        // Sent in chunks as they are rendered (chunked transfer encoding): the whole body is never held.
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: ResponseBody { writer in
                for piece in stream { try await writer.write(ByteBuffer(bytes: piece)) }
                try await writer.finish(nil)
            })
    }
}
