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
        var call = UnleashClientCall(appName: nil, sdkVersion: nil, counts: [:])
        // The whole body is read first (text that is not JSON is that error, wherever it is); the first member of
        // the wrong shape is reported after.
        var shape: String?
        try RequestBody.read(body) { reader throws(ReadFailure) -> Void in
            guard reader.byte == UInt8(ascii: "{") else {
                _ = try reader.readJSONValue()
                shape = "the request body must be a JSON object"
                return
            }
            try reader.open()
            var names: Set<String> = []
            var state = JSONReader.ObjectState()
            while let token = try reader.nextFieldName(&state) {
                let name = token.string
                guard names.insert(name).inserted else { throw JSONReader.duplicateMember(name) }
                switch name {
                case "appName": call.appName = try reader.readJSONValue().stringValue.flatMap { $0.isEmpty ? nil : $0 }
                case "sdkVersion": call.sdkVersion = try reader.readJSONValue().stringValue
                case "bucket":
                    let problem = try Self.readBucket(&reader, into: &call.counts)
                    shape = shape ?? problem
                default: try reader.skipValue()
                }
            }
        }
        if let shape { throw .wrongShape(shape) }
        self = call
    }

    private init(appName: String?, sdkVersion: String?, counts: [String: EvaluationCount]) {
        self.appName = appName
        self.sdkVersion = sdkVersion
        self.counts = counts
    }

    /// `bucket`: `{"toggles": {name: {"yes": n, "no": n}}}`; returns what is wrong with its shape, if anything.
    private static func readBucket(_ reader: inout JSONReader, into counts: inout [String: EvaluationCount])
        throws(ReadFailure) -> String?
    {
        let wrongBucket = "\"bucket\" must be an object with a \"toggles\" object"
        guard reader.byte == UInt8(ascii: "{") else {
            try reader.skipValue()
            return wrongBucket
        }
        try reader.open()
        var problem: String?
        var names: Set<String> = []
        var state = JSONReader.ObjectState()
        while let token = try reader.nextFieldName(&state) {
            let name = token.string
            guard names.insert(name).inserted else { throw JSONReader.duplicateMember(name) }
            guard name == "toggles", reader.byte == UInt8(ascii: "{") else {
                try reader.skipValue()
                if name == "toggles" { problem = problem ?? wrongBucket }
                continue
            }
            try reader.open()
            var toggleNames: Set<String> = []
            var toggles = JSONReader.ObjectState()
            while let toggle = try reader.nextFieldName(&toggles) {
                let toggleName = toggle.string
                guard toggleNames.insert(toggleName).inserted else { throw JSONReader.duplicateMember(toggleName) }
                let (count, wrong) = try readCount(&reader, toggle: toggleName)
                if let wrong { problem = problem ?? wrong } else { counts[toggleName] = count }
            }
        }
        return problem
    }

    /// One toggle's `{"yes": n, "no": n}`: the count, or what is wrong with it.
    private static func readCount(_ reader: inout JSONReader, toggle name: String) throws(ReadFailure)
        -> (EvaluationCount, String?)
    {
        guard reader.byte == UInt8(ascii: "{") else {
            try reader.skipValue()
            return (EvaluationCount(), "\"bucket.toggles.\(name)\" must be an object")
        }
        try reader.open()
        var count = EvaluationCount()
        var problem: String?
        var fields: Set<String> = []
        var state = JSONReader.ObjectState()
        while let token = try reader.nextFieldName(&state) {
            let field = token.string
            guard fields.insert(field).inserted else { throw JSONReader.duplicateMember(field) }
            guard field == "yes" || field == "no" else {
                try reader.skipValue()
                continue
            }
            let wrong = "\"bucket.toggles.\(name).\(field)\" must be a whole number, 0 or more"
            guard reader.byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.byte)
            else {
                try reader.skipValue()
                problem = problem ?? wrong
                continue
            }
            // A whole number of any size: one beyond `Int.max` counts as `Int.max` (it is not malformed).
            let number = try reader.readNumberText()
            let value = number.value
            guard value >= 0, value.rounded(.towardZero) == value else {
                problem = problem ?? wrong
                continue
            }
            let exact = number.isWhole ? Int(number.text) : nil
            let counted = exact ?? (value >= 0x1p63 ? .max : Int(value))
            if field == "yes" { count.yes = counted } else { count.no = counted }
        }
        return (count, problem)
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
        appName = try RequestBody.context(body)["appName"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }
}
