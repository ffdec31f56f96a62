import Flagstaff
import FlagstaffRemote
import FlagstaffTesting
import Foundation

/// A provider whose answers the test sets, recording every request. Used to test ``RemoteConfig``'s own
/// logic (interval, backoff, activation, persistence) without HTTP; the HTTP path is tested in
/// FlagstaffFirebaseTests against a real loopback server.
final class ScriptedProvider: RemoteConfigProvider {
    enum Answer: Sendable {
        case response(RemoteConfigFetchResponse)
        case failure(RemoteConfigProviderError)
        /// Wait (ignoring cancellation) until ``release()`` is called, then answer.
        case hang(RemoteConfigFetchResponse)
    }

    let name = "scripted"

    private struct State {
        var answer: Answer
        var deviceContext: [String: String] = [:]
        var requests: [RemoteConfigFetchRequest] = []
        var released = false
        /// Fetches hanging until ``release()``.
        var hanging: [CheckedContinuation<Void, Never>] = []
    }

    private let state: AnnotatedMutex<State>

    init(_ answer: Answer = .response(RemoteConfigFetchResponse(content: .empty))) {
        state = AnnotatedMutex(State(answer: answer))
    }

    func answer(_ answer: Answer) {
        state.withLock { $0.answer = answer }
    }

    func answer(entries: [String: String], version: String? = nil, eTag: String? = nil) {
        answer(.response(RemoteConfigFetchResponse(content: .entries(entries), templateVersion: version, eTag: eTag)))
    }

    var requests: [RemoteConfigFetchRequest] { state.withLock { $0.requests } }

    /// The device context reported to ``RemoteConfig``; tests change it to simulate an app update.
    var deviceContext: [String: String] {
        get { state.withLock { $0.deviceContext } }
        set { state.withLock { $0.deviceContext = newValue } }
    }

    /// Lets hanging fetches (and later ones) answer.
    func release() {
        let hanging = state.withLock { current in
            current.released = true
            defer { current.hanging.removeAll() }
            return current.hanging
        }
        for fetch in hanging { fetch.resume() }
    }

    func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError) -> RemoteConfigFetchResponse
    {
        let answer = state.withLock { current in
            current.requests.append(request)
            return current.answer
        }
        switch answer {
        case .response(let response):
            return response
        case .failure(let error):
            throw error
        case .hang(let response):
            // A continuation, not a cancellable sleep: this provider ignores cancellation on purpose.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let answerNow = state.withLock { current in
                    if !current.released { current.hanging.append(continuation) }
                    return current.released
                }
                if answerNow { continuation.resume() }
            }
            return response
        }
    }
}

extension RemoteConfigEnvironment {
    /// Waits and dates both on one `ManualClock`, with a fixed random source (0.5: a jitter factor of 1).
    static func manual(_ clock: ManualClock, random: Double = 0.5) -> RemoteConfigEnvironment {
        RemoteConfigEnvironment(clock: clock, now: { clock.date }, random: { random })
    }
}

/// A fresh temporary directory, removed by the caller.
func makeTemporaryDirectory(_ name: String = #function) -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    return FileManager.default.temporaryDirectory
        .appendingPathComponent("flagstaff-remote-tests-\(safe)-\(UUID().uuidString)", isDirectory: true)
}

extension ScriptedProvider {
    /// A provider that answers `entries`, and a config on it whose waits and dates follow `clock`.
    /// - Returns: the config and its provider.
    static func config(
        answering entries: [String: String], minimumFetchInterval: TimeInterval, clock: ManualClock
    ) -> (RemoteConfig, ScriptedProvider) {
        let provider = ScriptedProvider()
        provider.answer(entries: entries)
        let config = RemoteConfig(
            provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: minimumFetchInterval),
            environment: .manual(clock))
        return (config, provider)
    }
}
