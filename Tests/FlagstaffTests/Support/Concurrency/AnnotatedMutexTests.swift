import Foundation
import Testing

@testable import Flagstaff

@Suite struct AnnotatedMutexTests {
    /// A counter shared between threads.
    private final class Counter: Sendable {
        let value = AnnotatedMutex(0)
    }

    @Test func concurrentCriticalSectionsDoNotInterleave() {
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 {
                // A read-modify-write in two steps: lost updates would show if two sections overlapped.
                counter.value.withLock { value in
                    let seen = value
                    value = seen + 1
                }
            }
        }
        #expect(counter.value.withLock { $0 } == 8_000)
    }

    @Test func anErrorLeavesTheLockReleasedAndTheValueAsWritten() {
        struct Refused: Error {}
        let mutex = AnnotatedMutex([1])
        #expect(throws: Refused.self) {
            try mutex.withLock { (value: inout [Int]) throws(Refused) in
                value.append(2)
                throw Refused()
            }
        }
        #expect(mutex.withLock { $0 } == [1, 2])
    }

    @Test func theSanitizerHooksAreFoundExactlyUnderTheSanitizer() {
        let underSanitizer = Platform.loadedSymbol(named: "__tsan_init") != nil
        #expect((ThreadSanitizerHooks.shared != nil) == underSanitizer)
    }
}
