import HTTPTypes
import Hummingbird

extension ServerReply {
    /// The reply as a Hummingbird response: JSON content type when there is a body, the ETag, and
    /// `Cache-Control: no-cache` so caches revalidate.
    var response: Response {
        var headers = HTTPFields()
        if !body.isEmpty { headers[.contentType] = "application/json; charset=utf-8" }
        if let etag { headers[.eTag] = etag }
        headers[.cacheControl] = "no-cache"
        // Hummingbird's CORS middleware names exposed headers only in preflight answers; browsers read them here.
        headers[.accessControlExposeHeaders] = "ETag"
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
