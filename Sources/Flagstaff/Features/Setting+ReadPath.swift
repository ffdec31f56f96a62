import Synchronization

/// Where ``Setting/value`` reads the value from.
@usableFromInline
enum SettingReadPath: UInt8, Sendable {
    /// No override, no remote binding: the declared default.
    case declaredDefault
    /// An override of a one-word type, in ``Setting/overrideWord``.
    case overrideWord
    /// The published ``SettingState``: overrides of other types, remote values of other types.
    case publishedState
    /// A remote value of a one-word type, in ``Setting/remoteWord`` while ``Setting/remoteWordGeneration`` is the
    /// source's current generation; else the published state.
    case remoteWord
}

/// How a value of a setting's type fits in one 64-bit word, if it does.
@usableFromInline
enum SettingWordEncoding: UInt8, Sendable {
    case none, int, double, bool, caseIndex

    init<Value>(for type: Value.Type, hasCases: Bool) {
        if type == Int.self {
            self = .int
        } else if type == Double.self {
            self = .double
        } else if type == Bool.self {
            self = .bool
        } else {
            self = hasCases ? .caseIndex : .none
        }
    }
}

/// Serialises writes of every setting's state and read path, so that a setting's read path always matches its
/// latest state (writes happen when a person or a store changes a value, and once per remote generation).
enum SettingWriters {
    static let lock = AnnotatedMutex(())
}

extension Setting {
    /// The value a word holds (``SettingWordEncoding``). Decided by the type, as ``SettingWordEncoding/init(for:hasCases:)``
    /// decides the encoding, so that a read specialised for its type has no branch left.
    @inlinable @inline(__always)
    static func value(ofWord word: UInt64, cases: [Value]?) -> Value {
        if Value.self == Int.self { return unsafeBitCast(Int(Int64(bitPattern: word)), to: Value.self) }
        if Value.self == Double.self { return unsafeBitCast(Double(bitPattern: word), to: Value.self) }
        if Value.self == Bool.self { return unsafeBitCast(word != 0, to: Value.self) }
        return cases.unsafelyUnwrapped[Int(truncatingIfNeeded: word)]
    }

    /// The word ``value(ofWord:cases:)`` reads back, or `nil` when `value` does not fit in one.
    func word(of value: Value) -> UInt64? {
        switch wordEncoding {
        case .int: return UInt64(bitPattern: Int64(unsafeBitCast(value, to: Int.self)))
        case .double: return unsafeBitCast(value, to: Double.self).bitPattern
        case .bool: return unsafeBitCast(value, to: Bool.self) ? 1 : 0
        case .caseIndex: return cases?.firstIndex(of: value).map { UInt64($0) }
        case .none: return nil
        }
    }

    /// Publishes the state `change` makes from the current one, then points ``readPath`` at the new value.
    /// - Returns: the state replaced and the state published.
    @discardableResult
    func write(
        _ change: (SettingState<Value>) -> SettingState<Value>
    ) -> (previous: SettingState<Value>, next: SettingState<Value>) {
        SettingWriters.lock.withLock { _ in
            let states = state.update { current in
                let next = change(current)
                return (next, (previous: current, next: next))
            }
            let next = states.next
            // A new binding has no remote value yet: the remote word is not its value.
            if next.parts.remoteGeneration == 0 { remoteWordGeneration.store(0, ordering: .relaxed) }
            if let forced = next.forced, let bits = word(of: forced) {
                // The word first: a reader that sees the path sees this word (or a later one).
                overrideWord.store(bits, ordering: .relaxed)
                readPath.store(SettingReadPath.overrideWord.rawValue, ordering: .releasing)
            } else if next.forced == nil, let generation = next.parts.sourceGeneration, wordEncoding != .none,
                wordSourceGeneration.publishIfEmpty(generation, { $0 === generation })
            {
                readPath.store(SettingReadPath.remoteWord.rawValue, ordering: .releasing)
            } else if next.forced != nil || next.parts.binding != nil {
                readPath.store(SettingReadPath.publishedState.rawValue, ordering: .releasing)
            } else {
                readPath.store(SettingReadPath.declaredDefault.rawValue, ordering: .releasing)
            }
            return states
        }
    }

    /// Publishes the remote value decoded for `generation` of `binding`, unless the setting has been bound again
    /// since (the value belongs to the old binding) or a later generation's value is published already (a refresh
    /// that lost a race must not put an older value back).
    func publishRemote(
        _ decoded: Value?, raw: RemoteSettingValue?, problem: String?, generation: UInt64,
        for binding: SettingRemoteBinding, sourceGeneration: SettingSourceGeneration
    ) {
        SettingWriters.lock.withLock { _ in
            let current = state.read {
                $0.parts.sourceGeneration === sourceGeneration && $0.parts.binding?.source === binding.source
                    && $0.parts.binding?.key == binding.key && $0.parts.remoteGeneration <= generation
            }
            guard current else { return }
            state.update {
                let next = $0.with {
                    $0.remote = decoded
                    $0.remoteRaw = raw
                    $0.remoteProblem = problem
                    $0.remoteGeneration = generation
                }
                return (next, ())
            }
            // The word, then its generation (release): a reader that sees the generation sees this word or a later one.
            guard wordSourceGeneration.readIfPublishedOnce({ $0 === sourceGeneration }) == true,
                let bits = word(of: decoded ?? defaultValue)
            else { return }
            remoteWord.store(bits, ordering: .relaxed)
            remoteWordGeneration.store(generation, ordering: .releasing)
        }
    }
}
