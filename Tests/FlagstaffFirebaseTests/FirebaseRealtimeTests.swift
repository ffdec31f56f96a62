import Flagstaff
import FlagstaffFirebase
import FlagstaffRemote
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

/// Collects what the two-argument update listener receives.
final class UpdateRecorder: Sendable {
    private let events = AnnotatedMutex<[Result<RemoteConfigUpdate, RemoteConfigError>]>([])
    func record(_ update: RemoteConfigUpdate?, _ error: RemoteConfigError?) {
        events.withLock { events in
            if let update { events.append(.success(update)) }
            if let error { events.append(.failure(error)) }
        }
    }
    var updates: [RemoteConfigUpdate] {
        events.withLock { $0.compactMap { if case .success(let update) = $0 { update } else { nil } } }
    }
    var errors: [RemoteConfigError] {
        events.withLock { $0.compactMap { if case .failure(let error) = $0 { error } else { nil } } }
    }
}

@Suite("Firebase realtime: the invalidation stream listeners open, against a loopback stand-in")
struct FirebaseRealtimeTests {
    /// How long to wait for the stream's threads and tasks. Generous: when the whole test run loads the machine,
    /// the cooperative pool and URLSession's queues can lag far behind; the waits end as soon as the condition holds.
    static let patience: Duration = .seconds(180)

    /// A config on the fake fetch server whose realtime stream goes to `stream`.
    static func config(_ server: FakeFirebaseServer, stream: RealtimeStandIn, clock: ManualClock) -> RemoteConfig {
        var options = FirebaseTestSupport.options(server.baseURL)
        options.realtimeEnabled = true
        options.realtimeBaseURL = stream.baseURL
        return RemoteConfig(
            provider: FirebaseRemoteConfigProvider(options: options),
            settings: RemoteConfigSettings(minimumFetchInterval: 3600, fetchTimeout: 60),
            environment: RemoteConfigEnvironment(clock: clock, now: { clock.date }, random: { 0.1 }))
    }

    @Test("a listener opens one long-lived stream; each announced version is fetched and delivered")
    func streamDeliversUpdates() async throws {
        let server = try FakeFirebaseServer()
        let stream = try RealtimeStandIn()
        let clock = ManualClock()
        let config = Self.config(server, stream: stream, clock: clock)
        await config.fetchAndActivate()
        #expect(config.metadata.fetchedTemplateVersion == "1")
        let recorder = UpdateRecorder()
        let registration = config.addOnConfigUpdateListener { recorder.record($0, $1) }
        defer { registration.remove() }
        #expect(config.isRealtimeRunning)
        #expect(await eventually(timeout: Self.patience) { stream.openStreamCount == 1 })

        let request = try #require(stream.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/projects/42/namespaces/firebase:streamFetchInvalidations")
        #expect(request.query["key"] == FakeFirebaseServer.apiKey)
        #expect(request.headers["X-Goog-Api-Key"] == FakeFirebaseServer.apiKey)
        #expect(request.headers["x-goog-firebase-installations-auth"] == "token-1")
        #expect(request.headers["X-Google-GFE-Can-Retry"] == "true")
        #expect(request.headers["if-none-match"] == config.metadata.eTag)
        let body = try #require(request.jsonBody)
        #expect(body["project"] as? String == "42")
        #expect(body["namespace"] as? String == "firebase")
        #expect(body["lastKnownVersionNumber"] as? String == "1")
        #expect(body["appId"] as? String == "1:42:ios:moments")
        #expect(body["appInstanceId"] as? String == "instance-1")

        // Inside the 3600 s minimum fetch interval, yet the announcement fetches at once.
        server.publish(["maxPhotos": FakeFirebaseServer.Parameter(defaultValue: "12")])
        stream.send(#"[{"latestTemplateVersionNumber": "2"}"#)
        #expect(await eventually(timeout: Self.patience) { recorder.updates.count == 1 })
        #expect(recorder.updates.first?.updatedKeys == ["maxPhotos"])
        let realtimeFetch = try #require(server.requests.last)
        #expect(realtimeFetch.headers["X-Firebase-RC-Fetch-Type"] == "REALTIME/1")
        #expect(config.metadata.fetchedTemplateVersion == "2")

        // A second message on the same connection.
        server.publish(["maxPhotos": FakeFirebaseServer.Parameter(defaultValue: "13")])
        stream.send(#",{"latestTemplateVersionNumber": 3}"#)
        #expect(await eventually(timeout: Self.patience) { recorder.updates.count == 2 })
        #expect(stream.connectionCount == 1, "one long-lived connection")

        // An announcement of a version already fetched does not fetch.
        let fetches = server.requests.count
        stream.send(#",{"latestTemplateVersionNumber": "3"}"#)
        stream.send(#",{"retryIntervalSeconds": 0}"#)
        #expect(recorder.errors.isEmpty)
        #expect(server.requests.count == fetches)
    }

    @Test("the stream and a concurrent fetch share one registered installation")
    func streamSharesInstallation() async throws {
        let server = try FakeFirebaseServer()
        let stream = try RealtimeStandIn()
        var options = FirebaseTestSupport.options(server.baseURL, installation: .automatic)
        options.realtimeEnabled = true
        options.realtimeBaseURL = stream.baseURL
        let clock = ManualClock()
        let config = RemoteConfig(
            provider: FirebaseRemoteConfigProvider(options: options, now: { clock.date }),
            settings: RemoteConfigSettings(minimumFetchInterval: 0),
            environment: FirebaseTestSupport.environment(clock))
        let registration = config.addOnConfigUpdateListener { _ in }
        defer { registration.remove() }
        #expect(await config.fetch().status == .success)
        #expect(await eventually(timeout: Self.patience) { stream.openStreamCount == 1 })
        #expect(server.installations { $0.registrations } == 1)
        let fetch = try #require(server.requests.last)
        let streamRequest = try #require(stream.requests.first)
        #expect(streamRequest.headers["x-goog-firebase-installations-auth"] == "auth-1")
        #expect(streamRequest.jsonBody?["appInstanceId"] as? String == fetch.jsonBody?["app_instance_id"] as? String)
    }

    @Test("removing the last listener closes the stream; adding one opens it again")
    func lastListenerClosesStream() async throws {
        let server = try FakeFirebaseServer()
        let stream = try RealtimeStandIn()
        let config = Self.config(server, stream: stream, clock: ManualClock())
        let first = config.addOnConfigUpdateListener { _ in }
        let second = config.addOnConfigUpdateListener { _, _ in }
        #expect(await eventually(timeout: Self.patience) { stream.openStreamCount == 1 })
        first.remove()
        #expect(config.isRealtimeRunning, "one listener is left")
        second.remove()
        #expect(config.isRealtimeRunning == false)
        #expect(await eventually(timeout: Self.patience) { stream.openStreamCount == 0 }, "the connection is closed")
        let again = config.addOnConfigUpdateListener { _ in }
        defer { again.remove() }
        #expect(await eventually(timeout: Self.patience) { stream.openStreamCount == 1 && stream.connectionCount == 2 })
    }

    @Test("a stream the server closes cleanly is reopened at once")
    func reconnectsAfterCleanClose() async throws {
        let server = try FakeFirebaseServer()
        let stream = try RealtimeStandIn()
        let config = Self.config(server, stream: stream, clock: ManualClock())
        let registration = config.addOnConfigUpdateListener { _ in }
        defer { registration.remove() }
        #expect(await eventually(timeout: Self.patience) { stream.openStreamCount == 1 })
        stream.closeStreams()
        #expect(await eventually(timeout: Self.patience) { stream.connectionCount == 2 && stream.openStreamCount == 1 })
    }

    @Test("503 backs off on the clock (2 minutes, doubling) and reconnects; errors reach listeners after 7 tries")
    func backoffAndRetryBudget() async throws {
        let server = try FakeFirebaseServer()
        let stream = try RealtimeStandIn()
        stream.setMode(.status(503))
        let clock = ManualClock()
        let config = Self.config(server, stream: stream, clock: clock)  // random 0.1: jitter factor 0.6
        let recorder = UpdateRecorder()
        let registration = config.addOnConfigUpdateListener { recorder.record($0, $1) }
        defer { registration.remove() }

        var expected: Double = 120
        for attempt in 1..<RemoteConfig.realtimeMaximumRetries {
            try await clock.waitForSleepers(timeout: Self.patience)
            #expect(stream.connectionCount == attempt)
            let wait = try #require(clock.nextDeadline).offset - clock.now.offset
            #expect(wait == .milliseconds(Int64(expected * 0.6 * 1000)), "attempt \(attempt)")
            #expect(recorder.errors.isEmpty, "503 is retried quietly")
            clock.advance(by: wait)
            expected *= 2
        }
        #expect(await eventually(timeout: Self.patience) { recorder.errors.count == 1 })
        #expect(stream.connectionCount == RemoteConfig.realtimeMaximumRetries)
        #expect(recorder.errors.first?.description.contains("unable to connect to the server after 7 attempts") == true)
        #expect(await eventually(timeout: Self.patience) { config.isRealtimeRunning == false })
        #expect(clock.sleeperCount == 0)
    }

    @Test("a connection closed before any answer backs off instead of reconnecting at once")
    func hangUpBacksOff() async throws {
        let server = try FakeFirebaseServer()
        let stream = try RealtimeStandIn()
        stream.setMode(.hangUp)
        let clock = ManualClock()
        let config = Self.config(server, stream: stream, clock: clock)
        let registration = config.addOnConfigUpdateListener { _ in }
        defer { registration.remove() }
        try await clock.waitForSleepers(timeout: Self.patience)
        #expect(stream.connectionCount == 1)
        #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(72)), "2 minutes × jitter factor 0.6")
        stream.setMode(.stream)
        clock.advance(by: .seconds(72))
        #expect(await eventually(timeout: Self.patience) { stream.openStreamCount == 1 })
    }

    @Test("a non-retryable status and a featureDisabled message reach the listeners as errors")
    func errorsReachListeners() async throws {
        let server = try FakeFirebaseServer()
        let stream = try RealtimeStandIn()
        stream.setMode(.status(400))
        let clock = ManualClock()
        let config = Self.config(server, stream: stream, clock: clock)
        let recorder = UpdateRecorder()
        let registration = config.addOnConfigUpdateListener { recorder.record($0, $1) }
        defer { registration.remove() }
        #expect(await eventually(timeout: Self.patience) { recorder.errors.count == 1 })
        #expect(recorder.errors.first?.description.contains("HTTP 400") == true, "\(recorder.errors)")

        stream.setMode(.stream)
        try await clock.waitForSleepers(timeout: Self.patience)
        clock.advance(by: .seconds(120))
        #expect(await eventually(timeout: Self.patience) { stream.openStreamCount == 1 })
        stream.send(#"{"featureDisabled": true}"#)
        #expect(await eventually(timeout: Self.patience) { recorder.errors.count == 2 })
        #expect(recorder.errors.last?.description.contains("turned realtime updates off") == true)
        #expect(await eventually(timeout: Self.patience) { config.isRealtimeRunning == false })
    }

    @Test("an announced version that fetching cannot reach is retried 3 times, then reported")
    func unreachableVersion() async throws {
        let server = try FakeFirebaseServer()
        let stream = try RealtimeStandIn()
        let clock = ManualClock()
        let config = Self.config(server, stream: stream, clock: clock)
        let recorder = UpdateRecorder()
        let registration = config.addOnConfigUpdateListener { recorder.record($0, $1) }
        defer { registration.remove() }
        #expect(await eventually(timeout: Self.patience) { stream.openStreamCount == 1 })
        stream.send(#"{"latestTemplateVersionNumber": "9"}"#)
        #expect(await eventually(timeout: Self.patience) { recorder.errors.count == 1 })
        #expect(
            recorder.errors.first?.description.contains("latest version of the template (9) after 3 attempts") == true)
        let realtimeFetches = server.requests.compactMap { $0.headers["X-Firebase-RC-Fetch-Type"] }
        #expect(realtimeFetches == ["REALTIME/1", "REALTIME/2", "REALTIME/3"])
        #expect(recorder.updates.count == 1, "the first fetch still brought the template it found")
    }
}

@Suite("Firebase realtime message framing")
struct FirebaseRealtimeMessageTests {
    @Test("messages split anywhere, inside an array, with separators, are read once each")
    func framing() {
        var reader = FirebaseRealtimeMessageReader()
        let text = #"[{"latestTemplateVersionNumber": "5"},{"latestTemplateVersionNumber":6,"x":"}{"}"#
        var events: [RemoteConfigStreamEvent] = []
        for byte in text.utf8 { events += reader.append(Data([byte])) }
        #expect(events == [.templateVersion(5), .templateVersion(6)])
    }

    @Test("featureDisabled, retryIntervalSeconds, a 403 error message and nonsense")
    func messageKinds() {
        var reader = FirebaseRealtimeMessageReader()
        #expect(reader.append(Data(#"{"featureDisabled": true}"#.utf8)) == [.disabled])
        #expect(reader.append(Data(#"{"retryIntervalSeconds": "30"}"#.utf8)) == [.retryInterval(30)])
        #expect(
            reader.append(Data(#"{"error": {"code": 403, "message": "denied"}}"#.utf8))
                == [.failed(.httpStatus(403, message: "denied"), retryable: false)])
        let odd = reader.append(Data(#"{"latestTemplateVersionNumber": "v2"}{"other": 1}"#.utf8))
        #expect(odd.count == 2)
        #expect(odd.allSatisfy { if case .invalidMessage = $0 { true } else { false } })
    }
}
