import Foundation
import Logging
import Synchronization

/// Where the libraries' log messages (swift-log) go in `flagstaff`: standard error as
/// `flagstaff: warning: …`, sanitised, at the level of `FLAGSTAFF_LOG_LEVEL` (default `error`, since every
/// command reports its own failures), and nowhere while the console owns the terminal.
struct CLILogHandler: LogHandler {
    /// `true` while the console runs: a line written to the terminal would tear its screen.
    static let muted = Atomic<Bool>(false)

    /// Installs the handler for every logger (once, at start-up).
    /// - Parameter environment: the process environment, for `FLAGSTAFF_LOG_LEVEL`.
    static func bootstrap(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let (level, warning) = level(environment: environment)
        LoggingSystem.bootstrap { _ in CLILogHandler(logLevel: level) }
        if let warning { StandardStreams.err("flagstaff: warning: " + warning) }
    }

    /// The level `FLAGSTAFF_LOG_LEVEL` names (any case; unset or empty: `error`), and a warning saying which values
    /// are accepted when it names none (the level is then `error`).
    static func level(environment: [String: String]) -> (Logger.Level, warning: String?) {
        guard let text = environment["FLAGSTAFF_LOG_LEVEL"], !text.isEmpty else { return (.error, nil) }
        if let level = Logger.Level(rawValue: text.lowercased()) { return (level, nil) }
        let accepted = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
        return (
            .error,
            "FLAGSTAFF_LOG_LEVEL='\(TerminalText.safe(text))' is not a log level (expected one of: \(accepted)); using error"
        )
    }

    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard !Self.muted.load(ordering: .relaxed) else { return }
        StandardStreams.err("flagstaff: \(event.level): " + TerminalText.safe(event.message.description))
    }
}
