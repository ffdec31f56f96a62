import Flagstaff
import FlagstaffRemote
import FlagstaffTesting
import Foundation
import Testing

@Suite("Update listeners with errors (the SDK's two-argument form)")
struct RemoteConfigUpdateListenerTests {
    @Test("the two-argument listener gets updates from ordinary fetches; a provider that cannot stream opens none")
    func twoArgumentListener() async throws {
        let clock = ManualClock()
        let (config, provider) = ScriptedProvider.config(answering: ["a": "1"], minimumFetchInterval: 0, clock: clock)
        let received = AnnotatedMutex<[RemoteConfigUpdate]>([])
        let registration = config.addOnConfigUpdateListener { update, error in
            #expect(error == nil)
            if let update { received.withLock { $0.append(update) } }
        }
        #expect(config.isRealtimeRunning == false, "ScriptedProvider is not a RemoteConfigRealtimeProvider")
        await config.fetch()
        #expect(received.withLock { $0 } == [RemoteConfigUpdate(updatedKeys: ["a"])])
        registration.remove()
        provider.answer(entries: ["a": "2"])
        #expect(await config.fetch(expirationDuration: 0).pendingKeys == ["a"])
        #expect(received.withLock { $0.count } == 1)
    }
}
