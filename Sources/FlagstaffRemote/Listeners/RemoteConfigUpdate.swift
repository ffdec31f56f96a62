import Flagstaff
import Foundation
import Synchronization

/// A notification that a fetch brought a config that differs from the active one.
public struct RemoteConfigUpdate: Sendable, Hashable {
    /// Keys added, removed or changed between the fetched and the active config. Call
    /// ``RemoteConfig/activate()`` to make them visible.
    public var updatedKeys: Set<String>

    /// Creates an update.
    ///
    /// - Parameter updatedKeys: The keys that differ.
    public init(updatedKeys: Set<String>) {
        self.updatedKeys = updatedKeys
    }
}

/// A handle to a listener; call ``remove()`` to stop receiving callbacks.
///
/// Dropping the handle does **not** remove the listener (as in the Firebase SDK); call ``remove()``.
public final class RemoteConfigListenerRegistration: Sendable {
    private let removal: AnnotatedMutex<(@Sendable () -> Void)?>

    init(removal: @escaping @Sendable () -> Void) {
        self.removal = AnnotatedMutex(removal)
    }

    /// Removes the listener. Safe to call more than once.
    public func remove() {
        let action = removal.withLock { slot in
            defer { slot = nil }
            return slot
        }
        action?()
    }
}
