import Foundation
import Testing

@testable import Flagstaff

/// The task-local seam under `withFeature`/`withSetting`, on its own: scopes nest and merge, close on every exit,
/// reach child tasks and no other task.
@Suite struct TaskLocalOverridesTests {
    struct Stop: Error {}

    @Test func nestedScopesMergeAndTheInnerValueWinsUntilItCloses() {
        let first = Feature()
        let second = Feature()
        TaskLocalOverrides.with([(first, true), (second, false)]) {
            #expect(first.hasOpenTestScope && second.hasOpenTestScope)
            TaskLocalOverrides.with([(first, false)]) {
                #expect(TaskLocalOverrides.value(for: first) as? Bool == false)
                #expect(TaskLocalOverrides.value(for: second) as? Bool == false, "the outer scope's value stays")
                #expect(first.openTestScopes.load(ordering: .relaxed) == 2)
            }
            #expect(TaskLocalOverrides.value(for: first) as? Bool == true)
            #expect(first.openTestScopes.load(ordering: .relaxed) == 1)
        }
        #expect(TaskLocalOverrides.value(for: first) == nil && TaskLocalOverrides.value(for: second) == nil)
        #expect(!first.hasOpenTestScope && !second.hasOpenTestScope)
    }

    @Test func aScopeLeftByAnErrorIsClosed() async {
        let flag = Feature()
        #expect(throws: Stop.self) {
            try TaskLocalOverrides.with([(flag, true)]) { throw Stop() }
        }
        await #expect(throws: Stop.self) {
            try await TaskLocalOverrides.with([(flag, true)]) {
                await Task.yield()
                throw Stop()
            }
        }
        #expect(!flag.hasOpenTestScope)
        #expect(TaskLocalOverrides.value(for: flag) == nil)
    }

    @Test func childTasksSeeTheValuesAndDetachedTasksDoNot() async {
        let flag = Feature()
        await TaskLocalOverrides.with([(flag, true)]) {
            async let child = TaskLocalOverrides.value(for: flag) as? Bool
            let detached = await Task.detached { TaskLocalOverrides.value(for: flag) as? Bool }.value
            #expect(await child == true)
            #expect(detached == nil)
            #expect(flag.hasOpenTestScope, "the count is process-wide: readers elsewhere look, and find nothing")
        }
    }
}
