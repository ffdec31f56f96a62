import CNCurses
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Catches the signals the console must react to, and lets the input loop see them.
///
/// A handler only sets a bit in an atomic word (async-signal-safe); the input loop calls ``take()`` after every
/// read (reads time out every 100 ms and are interrupted by signals, since the handlers are installed without
/// `SA_RESTART`) and runs the normal teardown or suspend path itself. `SIGWINCH` is left to ncurses, which
/// turns it into `KEY_RESIZE`.
final class SignalMonitor {
    /// The signals handled: interrupt, terminate, hang-up and terminal stop (Ctrl-Z).
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP]

    /// Bit `n` set means signal `n` arrived and was not yet taken.
    private static let pending = Atomic<UInt64>(0)

    /// The dispositions in force before ``install()``, restored by ``uninstall()``.
    private var saved: [Int32: UnsafeMutablePointer<sigaction>] = [:]

    /// Installs the handlers (before `initscr`, so ncurses leaves them alone) and unblocks the signals,
    /// which a parent may have passed down blocked.
    func install() {
        _ = Self.pending.exchange(0, ordering: .sequentiallyConsistent)  // initialise before any handler runs
        for signal in Self.handled + [SIGCONT, SIGWINCH] { fs_unblock_signal(signal) }
        for signal in Self.handled where saved[signal] == nil {
            let old = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
            old.initialize(to: sigaction())
            fs_install_signal(
                signal,
                { number in
                    SignalMonitor.pending.bitwiseOr(UInt64(1) << UInt64(number & 63), ordering: .sequentiallyConsistent)
                }, old)
            saved[signal] = old
        }
    }

    /// Re-installs the console's handler for one signal (after a suspend reset it to the default).
    func reinstall(_ signal: Int32) {
        fs_install_signal(
            signal,
            { number in
                SignalMonitor.pending.bitwiseOr(UInt64(1) << UInt64(number & 63), ordering: .sequentiallyConsistent)
            }, nil)
    }

    /// Restores the dispositions saved by ``install()``.
    func uninstall() {
        for (signal, old) in saved {
            fs_restore_signal(signal, old)
            old.deinitialize(count: 1)
            old.deallocate()
        }
        saved = [:]
    }

    /// Returns the signals that arrived since the last call, and clears them.
    func take() -> [Int32] {
        let bits = Self.pending.exchange(0, ordering: .sequentiallyConsistent)
        guard bits != 0 else { return [] }
        return (1..<64).filter { bits & (UInt64(1) << UInt64($0)) != 0 }.map { Int32($0) }
    }

    deinit { uninstall() }
}
