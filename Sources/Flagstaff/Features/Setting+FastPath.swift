import Synchronization

/// How ``Setting/value`` reads without the reader counts: the default, and overrides or remote values of one-word
/// types (`Int`, `Double`, `Bool`, enum cases by index) kept in atomics beside the published state.
extension Setting {
    @inlinable
    static func value(fromBits bits: UInt64, kind: FastKind, cases: [Value]?) -> Value {
        switch kind {
        case .int: return unsafeBitCast(Int(Int64(bitPattern: bits)), to: Value.self)
        case .double: return unsafeBitCast(Double(bitPattern: bits), to: Value.self)
        case .bool: return unsafeBitCast(bits != 0, to: Value.self)
        case .caseIndex, .none: return cases.unsafelyUnwrapped[Int(truncatingIfNeeded: bits)]
        }
    }

    /// The bits ``value(fromBits:kind:cases:)`` reads back, or `nil` when `value` does not fit in a word.
    func bits(of value: Value) -> UInt64? {
        switch fastKind {
        case .int: return UInt64(bitPattern: Int64(unsafeBitCast(value, to: Int.self)))
        case .double: return unsafeBitCast(value, to: Double.self).bitPattern
        case .bool: return unsafeBitCast(value, to: Bool.self) ? 1 : 0
        case .caseIndex: return cases?.firstIndex(of: value).map { UInt64($0) }
        case .none: return nil
        }
    }

    /// Points ``value`` at the right place for `state` (called under the settings writer lock).
    func publishFastPath(for state: SettingState<Value>) {
        if let override = state.forced {
            if let bits = bits(of: override) {
                fastBits.store(bits, ordering: .relaxed)
                fastMode.store(1, ordering: .releasing)
            } else {
                fastMode.store(2, ordering: .releasing)
            }
        } else if let binding = state.binding {
            // The source is recorded once; a setting later bound to another source reads through `state`.
            if fastSourceOwner == nil {
                fastSourceOwner = binding.source
                fastSource = binding.source
            }
            guard state.remoteGeneration != .max, fastSourceOwner === binding.source,
                let bits = bits(of: state.remote ?? defaultValue)
            else {
                fastMode.store(2, ordering: .releasing)
                return
            }
            // Sequence-lock write: readers that see the same generation before and after the bits got these bits.
            fastGeneration.store(.max, ordering: .relaxed)
            atomicMemoryFence(ordering: .releasing)
            fastBits.store(bits, ordering: .relaxed)
            fastGeneration.store(state.remoteGeneration, ordering: .releasing)
            fastMode.store(3, ordering: .releasing)
        } else {
            fastMode.store(0, ordering: .releasing)
        }
    }
}
