import Foundation
import Synchronization
import Testing

@testable import Flagstaff

/// A setting's read path: the declared default, an override kept in one atomic word, or the published state; and
/// reads racing writes only ever see a value that was written.
@Suite struct SettingReadPathTests {
    enum Size: String, CaseIterable, Sendable, SettingValue { case small, medium, large }

    /// A remote source whose value and generation tests change.
    final class Source: SettingRemoteSource {
        let generation = Atomic<UInt64>(1)
        let text = AnnotatedMutex("7")
        var settingValueGeneration: UInt64 { generation.load(ordering: .acquiring) }
        func settingRemoteValue(forKey key: String) -> RemoteSettingValue? {
            RemoteSettingValue(text: text.withLock { $0 }, provider: "test", fetchedAt: nil)
        }
    }

    private func path<Value>(_ setting: Setting<Value>) -> SettingReadPath? {
        SettingReadPath(rawValue: setting.readPath.load(ordering: .acquiring))
    }

    @Test func eachStatePicksItsPath() throws {
        let count = Setting(default: 3)
        #expect(path(count) == .declaredDefault)
        count.overriddenValue = 5
        #expect(path(count) == .overrideWord)
        #expect(count.value == 5)
        count.overriddenValue = nil
        #expect(path(count) == .declaredDefault)
        #expect(count.value == 3)

        let name = Setting(default: "a")
        name.overriddenValue = "b"
        #expect(path(name) == .publishedState, "a string does not fit in a word")
        #expect(name.value == "b")

        let size = Setting(default: Size.small)
        size.overriddenValue = .large
        #expect(path(size) == .overrideWord)
        #expect(size.value == .large)

        let source = Source()
        let remote = Setting(default: 1, remote: SettingRemoteBinding(source: source, key: "k"))
        #expect(path(remote) == .publishedState)
        #expect(remote.value == 7)
        source.text.withLock { $0 = "8" }
        source.generation.add(1, ordering: .releasing)
        #expect(remote.value == 8, "a new generation of the source is read")
        remote.overriddenValue = 2
        #expect(path(remote) == .overrideWord)
        #expect(remote.value == 2)
        remote.overriddenValue = nil
        #expect(path(remote) == .publishedState)
        #expect(remote.value == 8)
    }

    @Test func readsRacingWritesSeeOnlyWrittenValues() {
        let count = Setting(default: 0)
        let name = Setting(default: "none")
        let size = Setting(default: Size.small)
        let unexpected = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for step in 0..<1_000 {
                if thread == 0 {
                    count.overriddenValue = step.isMultiple(of: 3) ? nil : step
                    name.overriddenValue = step.isMultiple(of: 3) ? nil : "n\(step)"
                    size.overriddenValue = Size.allCases[step % 3]
                } else {
                    let value = count.value
                    if value < 0 || value >= 1_000 { unexpected.add(1, ordering: .relaxed) }
                    let text = name.value
                    if text != "none" && !(text.hasPrefix("n") && Int(text.dropFirst()) != nil) {
                        unexpected.add(1, ordering: .relaxed)
                    }
                    _ = size.value
                }
            }
        }
        #expect(unexpected.load(ordering: .relaxed) == 0)
        // The last write (step 999, a multiple of 3) removed both overrides.
        #expect(count.value == 0)
        #expect(name.value == "none")
        #expect(size.value == Size.allCases[999 % 3])
    }
}
