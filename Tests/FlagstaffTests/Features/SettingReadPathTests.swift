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
        let settingValueGeneration = SettingSourceGeneration()
        let text = AnnotatedMutex("7")
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
        #expect(path(remote) == .remoteWord, "a remote number is kept in a word")
        #expect(remote.value == 7)
        source.text.withLock { $0 = "8" }
        source.settingValueGeneration.advance()
        #expect(remote.value == 8, "a new generation of the source is read")
        remote.overriddenValue = 2
        #expect(path(remote) == .overrideWord)
        #expect(remote.value == 2)
        remote.overriddenValue = nil
        #expect(path(remote) == .remoteWord)
        #expect(remote.value == 8)

        let remoteName = Setting(default: "a", remote: SettingRemoteBinding(source: source, key: "k"))
        #expect(path(remoteName) == .publishedState, "a remote string does not fit in a word")
        #expect(remoteName.value == "8")
    }

    /// A source that runs `onLookup` (once) while a setting asks it for its value.
    final class ReentrantSource: SettingRemoteSource {
        let settingValueGeneration = SettingSourceGeneration()
        let text: String
        let onLookup = AnnotatedMutex<(@Sendable () -> Void)?>(nil)
        init(_ text: String) { self.text = text }
        func settingRemoteValue(forKey key: String) -> RemoteSettingValue? {
            let hook = onLookup.withLock { hook in
                defer { hook = nil }
                return hook
            }
            hook?()
            return RemoteSettingValue(text: text, provider: "test", fetchedAt: nil)
        }
    }

    @Test func aValueDecodedForAnOldBindingIsNotKept() {
        // Both sources are at generation 1: a value kept from the old one would look current.
        let old = ReentrantSource("7")
        let new = ReentrantSource("9")
        let count = Setting(default: 1, remote: SettingRemoteBinding(source: old, key: "k"))
        old.onLookup.withLock { $0 = { count.bind(to: SettingRemoteBinding(source: new, key: "k")) } }
        _ = count.value  // decodes the old source's value, and the setting is bound again meanwhile
        #expect(count.value == 9, "the new binding's value")

        let late = Setting(default: 1)
        late.bind(to: SettingRemoteBinding(source: old, key: "k"))
        old.onLookup.withLock { $0 = { late.bind(to: SettingRemoteBinding(source: new, key: "k")) } }
        _ = late.value
        #expect(late.value == 9, "a setting bound after it was made")

        let oldName = ReentrantSource("old")
        let newName = ReentrantSource("new")
        let name = Setting(default: "x", remote: SettingRemoteBinding(source: oldName, key: "k"))
        oldName.onLookup.withLock { $0 = { name.bind(to: SettingRemoteBinding(source: newName, key: "k")) } }
        _ = name.value
        #expect(name.value == "new", "a value read from the published state")
    }

    @Test func aRemoteWordBelongsToOneBinding() {
        let first = FakeSettingSource()
        first.set("a", "7")
        first.set("b", "9")
        let count = Setting(default: 1, remote: SettingRemoteBinding(source: first, key: "a"))
        #expect(count.value == 7)
        count.bind(to: SettingRemoteBinding(source: first, key: "b"))
        #expect(path(count) == .remoteWord)
        #expect(count.value == 9, "another key of the same source, same generation: not the word of the first key")

        let second = FakeSettingSource()
        second.set("b", "20")
        count.bind(to: SettingRemoteBinding(source: second, key: "b"))
        #expect(path(count) == .publishedState, "the word follows the first source bound only")
        #expect(count.value == 20)
        second.set("b", "21")
        #expect(count.value == 21)

        count.bind(to: SettingRemoteBinding(source: first, key: "b"))
        #expect(path(count) == .remoteWord)
        #expect(count.value == 9)
        first.set("b", nil)
        #expect(count.value == 1, "no remote value: the default")
        first.set("b", "11")
        #expect(count.value == 11)
    }

    @Test func remoteReadsRacingActivationsSeeEachAtOnceAndNeverGoBack() {
        let source = FakeSettingSource()
        source.set("n", "0")
        let count = Setting(default: -1, remote: SettingRemoteBinding(source: source, key: "n"))
        let name = Setting(default: "-1", remote: SettingRemoteBinding(source: source, key: "n"))
        let problems = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            if thread == 0 {
                for step in 1...1_000 {
                    source.set("n", "\(step)")
                    if count.value != step || name.value != "\(step)" { problems.add(1, ordering: .relaxed) }
                }
            } else {
                var last = (count: 0, name: 0)
                for _ in 0..<10_000 {
                    let seen = (count: count.value, name: Int(name.value) ?? -1)
                    if seen.count < last.count || seen.name < last.name { problems.add(1, ordering: .relaxed) }
                    last = seen
                }
            }
        }
        #expect(problems.load(ordering: .relaxed) == 0)
        #expect(count.value == 1_000)
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
