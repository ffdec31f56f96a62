import Foundation
import Testing

@testable import Flagstaff

/// Public errors are structs wrapping a private code (issue 26): callers ask properties instead of matching cases,
/// so a new kind of failure is not a breaking change. Made as before (`.corrupt(path:reason:)`), described as before.
@Suite struct ErrorValueTests {
    @Test func aStoreErrorSaysWhatItIsThroughItsProperties() {
        let holder = FileOverrideStore.LockHolder(pid: 4242, command: "flagstaff set blueText on")
        let timeout = OverrideStoreError.lockTimeout(path: "/s.json", holder: holder, waited: .milliseconds(250))
        #expect(timeout.isLockTimeout && !timeout.isCorrupt && !timeout.isUnwritable)
        #expect(timeout.holder == holder && timeout.waited == .milliseconds(250) && timeout.path == "/s.json")
        #expect(
            timeout.description
                == "cannot write the override store /s.json: its lock is held by pid 4242 (flagstaff set blueText on); gave up after 0.25 s (nothing was changed)"
        )
        let corrupt = OverrideStoreError.corrupt(path: "/s.json", reason: "not valid JSON")
        #expect(corrupt.isCorrupt && !corrupt.isLockTimeout && corrupt.holder == nil && corrupt.waited == nil)
        #expect(corrupt.reason == "not valid JSON")
        #expect(
            corrupt.problem
                == "the override store /s.json is corrupt: not valid JSON. It was not changed; fix or delete it")
        #expect(corrupt.description == corrupt.problem + " (until then, flags read their defaults)")
        #expect(corrupt == .corrupt(path: "/s.json", reason: "not valid JSON"))
        #expect(corrupt != .unreadable(path: "/s.json", reason: "not valid JSON"))
        let location = OverrideStoreError.invalidLocation("https://x", reason: "expected a file path or file: URL")
        #expect(location.isInvalidLocation && location.path == "https://x")
        #expect(location.description == "cannot use https://x as an override store: expected a file path or file: URL")
        #expect(OverrideStoreError.unreadable(path: "/s", reason: "EIO").isUnreadable)
    }

    @Test func aRegistryErrorSaysWhatItIsThroughItsProperties() {
        let unknown = RegistryError.unknownKey("x")
        #expect(unknown.isUnknownKey && unknown.key == "x" && unknown.problems.isEmpty)
        #expect(unknown.description == "no flag has the key 'x'")
        let duplicate = RegistryError.duplicateKey("a", existingDeclaration: "AppFeatures.a")
        #expect(duplicate.isDuplicateKey && !duplicate.isInvalidKey && duplicate.key == "a")
        #expect(duplicate.description == "cannot register 'a': the key is already used by AppFeatures.a")
        #expect(RegistryError.invalidKey("", reason: "empty").isInvalidKey)
        #expect(RegistryError.notInRegistry("b").isNotInRegistry)
        let problem = RegistryProblem.sameFeatureTwice(firstDeclaration: "A.a", secondDeclaration: "A.b")
        let problems = RegistryError.problems([problem])
        #expect(problems.problems == [problem] && problems.key == nil)
        #expect(problems.description.hasPrefix("the registry has 1 problem(s):\n  - the same Feature object"))
    }
}
