import Dispatch
import Flagstaff
import FlagstaffRemote
import Synchronization
import Testing

/// A `RemoteFeature`'s config is published once: racing binds keep one config, and reads racing the bind see the
/// static default or that config's value (also run under the thread sanitizer).
@Suite struct RemoteFeatureBindingTests {
    @Test func racingBindsKeepOneConfigAndReadsSeeOnlyItsValueOrTheDefault() async {
        let configs = ["on": "true", "off": "false"].map { name, value in
            let provider = ScriptedProvider()
            provider.answer(entries: ["flag": value])
            return (name, RemoteConfig(provider: provider, settings: RemoteConfigSettings(minimumFetchInterval: 0)))
        }
        for (_, config) in configs { await config.fetchAndActivate() }
        let feature = RemoteFeature(key: "flag", remoteKey: "flag", default: false)
        let refused = Atomic<Int>(0)
        let sawOn = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            if thread.isMultiple(of: 2) {
                let config = configs[thread / 2 % 2].1
                do {
                    try feature.bind(to: config)
                } catch {
                    refused.add(1, ordering: .relaxed)
                }
            } else {
                for _ in 0..<1_000 where feature.enabled { sawOn.add(1, ordering: .relaxed) }
            }
        }
        let winner = feature.config
        #expect(winner != nil)
        let winnerName = configs.first { $0.1 === winner }?.0
        // Two binds per config: the two of the losing config are refused, the second of the winner is accepted.
        #expect(refused.load(ordering: .relaxed) == 2)
        #expect(feature.enabled == (winnerName == "on"))
        if winnerName == "off" { #expect(sawOn.load(ordering: .relaxed) == 0, "the default and the winner are off") }
    }
}
