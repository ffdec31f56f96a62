#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ConsoleSignal {
    /// The signal's number (`SIGINT`, …): standalone tools exit with 128 + it.
    package var number: Int32 {
        switch self {
        case .interrupt: SIGINT
        case .terminate: SIGTERM
        case .hangUp: SIGHUP
        case .suspend: SIGTSTP
        }
    }

    /// The signal with this number, if the console handles it.
    package init?(number: Int32) {
        guard let signal = Self.allCases.first(where: { $0.number == number }) else { return nil }
        self = signal
    }
}
