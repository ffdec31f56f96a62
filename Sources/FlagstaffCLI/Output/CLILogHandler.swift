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
        let level = environment["FLAGSTAFF_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .error
        LoggingSystem.bootstrap { _ in CLILogHandler(logLevel: level) }
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
