import Flagstaff
import Foundation

/// Short descriptions of a remote source's status for the header and the detail pane.
enum RemoteStatusText {
    /// "ok 12:03:04", "stale since 12:03:04", "throttled until 12:05:00", "failed: …", "not fetched yet".
    static func describe(_ status: RemoteSourceStatus) -> String {
        switch status.state {
        case .neverFetched: return "not fetched yet"
        case .ok: return "ok" + (status.lastFetch.map { " " + clock($0) } ?? "")
        case .stale: return "stale" + (status.lastFetch.map { " since " + clock($0) } ?? "")
        case .throttled(let until): return "throttled until " + clock(until)
        case .failed(let message): return "failed: " + TextSanitizer.sanitize(message)
        }
    }

    /// A local wall-clock time, `HH:MM:SS`.
    static func clock(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let number = value ?? 0
            return number < 10 ? "0\(number)" : "\(number)"
        }
        return "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}
