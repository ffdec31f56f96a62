import FlagstaffRemote
import Foundation
import Synchronization
import Testing

/// Run under `swift test --sanitize=thread --filter FlagstaffRemoteTests` to check for data races.
@Suite("RemoteConfig thread-safety")
struct RemoteConfigConcurrencyTests {
    @Test("reads on many threads during fetch/activate always see a whole config")
    func readsDuringFetchAndActivate() async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let provider = ScriptedProvider()
        let config = RemoteConfig(
            provider: provider, storageDirectory: directory,
            settings: RemoteConfigSettings(minimumFetchInterval: 0))
        try config.setDefaults(["generation": "0", "mirror": "0"])
        let stop = Atomic<Bool>(false)
        let torn = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let notified = Atomic<Int>(0)
        let registration = config.addOnConfigUpdateListener { _ in notified.add(1, ordering: .relaxed) }

        // Readers on plain threads (not the cooperative pool) hammer the read API: two, as many as the machine's
        // cores, so the fetches and activations on the cooperative pool still get to run.
        let finished = DispatchGroup()
        for _ in 0..<2 {
            finished.enter()
            let thread = Thread {
                defer { finished.leave() }
                while !stop.load(ordering: .relaxed) {
                    let keys = config.keys(withPrefix: nil)
                    let generation = config["generation"].stringValue
                    _ = config.allKeys(from: .remote)
                    _ = config.lastFetchStatus
                    _ = config.metadata
                    // Both keys are activated together, so a snapshot must never mix generations.
                    if keys.contains("mirror"),
                        generation != config.configValue(forKey: "mirror", source: .remote).stringValue,
                        config.activeValue(forKey: "generation")?.stringValue == generation
                    {
                        torn.add(1, ordering: .relaxed)
                    }
                    reads.add(1, ordering: .relaxed)
                }
            }
            thread.start()
        }

        for generation in 1...60 {
            provider.answer(
                entries: ["generation": "\(generation)", "mirror": "\(generation)"], version: "\(generation)")
            async let first = config.fetch()
            async let second = config.fetchAndActivate()
            _ = await (first, second)
            config.activate()
            if generation.isMultiple(of: 10) {
                let extra = config.addOnActivateListener { _ in }
                extra.remove()
                try config.setCustomSignals(["generation": .integer(generation)])
            }
        }
        stop.store(true, ordering: .relaxed)
        finished.wait()
        registration.remove()

        #expect(config["generation"].stringValue == "60")
        #expect(reads.load(ordering: .relaxed) > 0)
        #expect(notified.load(ordering: .relaxed) >= 1)
        #expect(torn.load(ordering: .relaxed) == 0)
    }
}
