import FlagstaffTestSupport
import Foundation
import Synchronization

@testable import Flagstaff

struct TypedFeatures: FeatureGroup {
    let blueText = Feature()
    let cardColor = Setting(default: "#f05138", description: "Card background")
    let maxItems = Setting(default: 20, range: 1...100)
    let ratio = Setting(default: 0.5)
    let theme = Setting(default: Theme.system, requiresRestart: true)
    let config = Setting(default: AppFeatureConfig.standard)
    let compact = Setting(default: false)
    let layout = TypedLayoutFeatures()
}

struct TypedLayoutFeatures: FeatureGroup {
    let columns = Setting(default: 3, range: 1...6)
}

/// A remote source in memory: values by key and a generation bumped on every change; counts lookups.
final class FakeSettingSource: SettingRemoteSource, @unchecked Sendable {
    private let values = AnnotatedMutex<[String: String]>([:])
    let settingValueGeneration = SettingSourceGeneration()
    let lookups = Atomic<Int>(0)

    func settingRemoteValue(forKey key: String) -> RemoteSettingValue? {
        lookups.add(1, ordering: .relaxed)
        return values.withLock { $0[key] }.map { RemoteSettingValue(text: $0, provider: "Fake", fetchedAt: nil) }
    }

    func set(_ key: String, _ text: String?) {
        values.withLock { $0[key] = text }
        settingValueGeneration.advance()
    }
}
