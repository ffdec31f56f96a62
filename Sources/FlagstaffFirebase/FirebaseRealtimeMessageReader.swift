import Flagstaff
import FlagstaffRemote
import Foundation

/// Cuts the realtime stream's body into messages and interprets them. Pure, so every framing is unit-tested.
///
/// The body is a sequence of JSON objects, possibly inside an array and split across reads at any byte
/// (`[{"latestTemplateVersionNumber": "5"}` … `,{"latestTemplateVersionNumber": "6"}`). Each complete top-level
/// object is one message: `latestTemplateVersionNumber` (a string or a number) announces a template version,
/// `featureDisabled: true` turns realtime off, `retryIntervalSeconds` asks for a pause before reconnecting, and
/// an error object with `"code": 403` is a refusal. Text between objects is skipped; more than
/// ``maximumMessageBytes`` without a complete object is reported and dropped.
package struct FirebaseRealtimeMessageReader {
    /// The largest message kept while waiting for its end.
    package static let maximumMessageBytes = 64 * 1024

    private var pending: [UInt8] = []

    /// Creates a reader with nothing buffered.
    package init() {}
    private var depth = 0
    private var inString = false
    private var escaped = false

    /// Feeds bytes as they arrived; returns the events of the messages they complete.
    package mutating func append(_ data: Data) -> [RemoteConfigStreamEvent] {
        var events: [RemoteConfigStreamEvent] = []
        for byte in data {
            if depth == 0 {
                guard byte == UInt8(ascii: "{") else { continue }  // separators, array brackets, whitespace
                pending = [byte]
                depth = 1
                continue
            }
            pending.append(byte)
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 {
                    events.append(contentsOf: Self.interpret(Data(pending)))
                    pending.removeAll()
                }
            }
            if pending.count > Self.maximumMessageBytes {
                events.append(.invalidMessage("a message longer than \(Self.maximumMessageBytes) bytes was dropped"))
                pending.removeAll()
                depth = 0
                inString = false
                escaped = false
            }
        }
        return events
    }

    /// The events of one complete JSON object.
    static func interpret(_ message: Data) -> [RemoteConfigStreamEvent] {
        guard let object = (try? JSONValue.readFoundation(message)) as? [String: Any] else {
            return [.invalidMessage("not a JSON object: \(String(decoding: message.prefix(200), as: UTF8.self))")]
        }
        if let error = object["error"] as? [String: Any] {
            let code = (error["code"] as? NSNumber)?.intValue
            let text = (error["message"] as? String) ?? (error["status"] as? String)
            if code == 403 {
                return [.failed(.httpStatus(403, message: text), retryable: false)]
            }
            return [.invalidMessage("error message \(code.map(String.init) ?? "?"): \(text ?? "")")]
        }
        var events: [RemoteConfigStreamEvent] = []
        if let disabled = object["featureDisabled"], (disabled as? Bool) == true || (disabled as? String) == "true" {
            events.append(.disabled)
        }
        if let version = object["latestTemplateVersionNumber"] {
            if let number = Self.integer(version) {
                events.append(.templateVersion(number))
            } else {
                events.append(.invalidMessage("latestTemplateVersionNumber is not a whole number"))
            }
        }
        if let retry = object["retryIntervalSeconds"], let seconds = Self.integer(retry), seconds > 0 {
            events.append(.retryInterval(TimeInterval(seconds)))
        }
        if events.isEmpty { events.append(.invalidMessage("a message with none of the known fields")) }
        return events
    }

    private static func integer(_ value: Any) -> Int64? {
        if let text = value as? String { return Int64(text.trimmingCharacters(in: .whitespaces)) }
        if let number = value as? NSNumber, type(of: value) != Bool.self {
            let double = number.doubleValue
            return double.isFinite && double == double.rounded() && abs(double) < 9e18 ? Int64(double) : nil
        }
        return nil
    }
}
