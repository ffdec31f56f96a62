import Flagstaff
import FlagstaffRemote
import Foundation
import Synchronization

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
    private let state = AnnotatedMutex<(answer: Answer, requests: [RemoteConfigFetchRequest], released: Bool)>(
        (.response(RemoteConfigFetchResponse(content: .empty)), [], false)
    )

    init(_ answer: Answer = .response(RemoteConfigFetchResponse(content: .empty))) {
        state.withLock { $0.answer = answer }
    }

    func answer(_ answer: Answer) {
        state.withLock { $0.answer = answer }
    }

    func answer(entries: [String: String], version: String? = nil, eTag: String? = nil) {
        answer(.response(RemoteConfigFetchResponse(content: .entries(entries), templateVersion: version, eTag: eTag)))
    }

    var requests: [RemoteConfigFetchRequest] { state.withLock { $0.requests } }

    /// Lets hanging fetches answer.
    func release() {
        state.withLock { $0.released = true }
    }

    func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError) -> RemoteConfigFetchResponse {
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
            while !state.withLock({ $0.released }) { try? await Task.sleep(nanoseconds: 5_000_000) }
            return response
        }
    }
}

/// A settable clock and a fixed random source for deterministic throttling tests.
final class TestClock: Sendable {
    private let current: AnnotatedMutex<Date>
    private let randomValue: AnnotatedMutex<Double>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000), random: Double = 0.5) {
        current = AnnotatedMutex(start)
        randomValue = AnnotatedMutex(random)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    func setRandom(_ value: Double) {
        randomValue.withLock { $0 = value }
    }

    var environment: RemoteConfigEnvironment {
        RemoteConfigEnvironment(now: { self.now }, random: { self.randomValue.withLock { $0 } })
    }
}

/// A fresh temporary directory, removed by the caller.
func makeTemporaryDirectory(_ name: String = #function) -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    return FileManager.default.temporaryDirectory
        .appendingPathComponent("flagstaff-remote-tests-\(safe)-\(UUID().uuidString)", isDirectory: true)
}
