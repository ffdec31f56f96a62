import FlagstaffTesting
import Testing

@testable import Flagstaff

/// A read looks for a task-local test value only while a scope forcing that member is open
/// (`AnyFeature.openTestScopes`): each scope counts itself on the members it forces, and only on those, for as long
/// as its body runs, however it ends.
@Suite struct TestScopeCountTests {
    struct Members: FeatureGroup {
        let forced = Feature()
        let other = Feature()
        let limit = Setting(default: 3)
    }

    /// Its own registry: the counts of members other tests force in parallel would not be exact.
    let members = FeatureRegistry(Members(), store: InMemoryOverrideStore())

    func counts() -> [Int32] {
        [members.forced, members.other, members.limit].map { $0.openTestScopes.load(ordering: .relaxed) }
    }

    @Test func aScopeCountsOnlyOnTheMembersItForcesWhileItsBodyRuns() {
        #expect(counts() == [0, 0, 0])
        withFeature(members.forced).enabled {
            #expect(counts() == [1, 0, 0])
            #expect(members.forced.hasOpenTestScope && !members.other.hasOpenTestScope)
            withFeature(members.forced).disabled {
                #expect(counts() == [2, 0, 0])
                #expect(!members.forced.enabled)
            }
            withSetting(members.limit, value: 9) {
                #expect(counts() == [1, 0, 1])
                #expect(members.limit.value == 9)
            }
        }
        #expect(counts() == [0, 0, 0])
        #expect(!members.forced.enabled && members.limit.value == 3)
    }

    @Test func aThrowingBodyClosesItsCount() {
        #expect(throws: ForcedFailure.self) {
            try withFeatures([members.forced, members.other]).enabled { throw ForcedFailure() }
        }
        #expect(counts() == [0, 0, 0])
    }

    @Test func anAsyncScopeCountsAcrossSuspensionsAndForItsChildTasks() async {
        let seen = await withSetting(members.limit, value: 7) {
            await Task.yield()
            #expect(counts() == [0, 0, 1])
            return await withTaskGroup(of: Int.self) { group in
                for _ in 0..<4 { group.addTask { members.limit.value } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(seen == [7, 7, 7, 7])
        #expect(counts() == [0, 0, 0])
    }
}
