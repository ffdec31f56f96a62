import Flagstaff
import Foundation

/// The bodies SDKs post to `…/client/register` and `…/client/metrics`, read leniently: only `appName`,
/// `sdkVersion` and the metrics bucket's `toggles.<name>.yes/no` are used; other members are ignored.
package struct UnleashClientCall: Sendable, Equatable {
    /// The `appName` member, if any.
    package var appName: String?
    /// The `sdkVersion` member, if any.
    package var sdkVersion: String?
    /// Per toggle, the `yes`/`no` counts of a metrics bucket (empty for a register call).
    package var counts: [String: EvaluationCount]

    /// Reads a register or metrics body.
    /// - Parameter body: the request body.
    /// - Throws: ``RequestBody/Problem`` saying what is wrong (not JSON; not an object; a count that is not a
    ///   whole number); the server answers 400 with it.
    package init(reading body: [UInt8]) throws(RequestBody.Problem) {
        let call = try RequestBody.object(body, expected: "a JSON object")
        appName = (call["appName"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        sdkVersion = call["sdkVersion"] as? String
        counts = [:]
        guard let bucket = call["bucket"] else { return }
        guard let bucket = bucket as? [String: Any],
            let toggles = (bucket["toggles"] ?? [String: Any]()) as? [String: Any]
        else {
            throw .wrongShape("\"bucket\" must be an object with a \"toggles\" object")
        }
        for (name, entry) in toggles {
            guard let entry = entry as? [String: Any] else {
                throw .wrongShape("\"bucket.toggles.\(name)\" must be an object")
            }
            var count = EvaluationCount()
            for (field, slot) in [("yes", \EvaluationCount.yes), ("no", \EvaluationCount.no)] {
                guard let value = entry[field] else { continue }
                // A whole number of any size: one beyond `Int.max` counts as `Int.max` (it is not malformed).
                guard let number = value as? NSNumber, case let double = number.doubleValue, double >= 0,
                    double.isFinite, double.rounded(.towardZero) == double
                else {
                    throw .wrongShape("\"bucket.toggles.\(name).\(field)\" must be a whole number, 0 or more")
                }
                count[keyPath: slot] = double >= 0x1p63 ? .max : Int(number.int64Value)
            }
            counts[name] = count
        }
    }
}

/// The body of `POST /api/frontend`, which frontend SDKs send instead of query parameters when asked to (the
/// JavaScript SDK's `usePOSTrequests`): `{"context": {…}}`. The served values do not depend on the context, so it
/// is only checked; its `appName` names the client.
package struct FrontendContextRequest: Sendable, Equatable {
    /// `context.appName`, if any.
    package var appName: String?

    /// Reads a body; an empty one is no context.
    /// - Throws: ``RequestBody/Problem`` saying what is wrong (not JSON; not an object; a `context` that is not an
    ///   object); the server answers 400 with it.
    package init(reading body: [UInt8]) throws(RequestBody.Problem) {
        appName = (try RequestBody.context(body)["appName"] as? String).flatMap { $0.isEmpty ? nil : $0 }
    }
}
