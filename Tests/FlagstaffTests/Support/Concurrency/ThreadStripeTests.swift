import Foundation
import Testing

@testable import Flagstaff

/// A numbering shared between threads (a noncopyable value cannot be captured by an escaping closure).
private final class Numbering: Sendable {
    let stripes = ThreadStripe()
}

/// Runs `body` on a thread of its own (not one of the concurrency pool's) and returns what it returns.
private func onNewThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

@Suite struct ThreadStripeTests {
    @Test func aThreadKeepsItsNumber() async {
        let numbering = Numbering()
        let (first, second) = await onNewThread { (numbering.stripes.current, numbering.stripes.current) }
        #expect(first == 0)
        #expect(second == first)
    }

    @Test func threadsAreNumberedInTheOrderTheyFirstAsk() async {
        let numbering = Numbering()
        var numbers: [Int] = []
        for _ in 0..<4 { numbers.append(await onNewThread { numbering.stripes.current }) }
        #expect(numbers == [0, 1, 2, 3])
    }

    @Test func numberingsAreIndependent() async {
        let first = Numbering()
        let second = Numbering()
        for _ in 0..<3 { _ = await onNewThread { first.stripes.current } }
        let (inFirst, inSecond) = await onNewThread { (first.stripes.current, second.stripes.current) }
        #expect(inFirst == 3)
        #expect(inSecond == 0)
    }

    @Test func threadsAskingAtOnceGetDistinctNumbers() {
        let numbering = Numbering()
        let seen = AnnotatedMutex<[(thread: ObjectIdentifier, number: Int)]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let number = numbering.stripes.current
            let thread = ObjectIdentifier(Thread.current)
            seen.withLock { $0.append((thread, number)) }
        }
        let pairs = seen.withLock { $0 }
        let numberOfThread = Dictionary(pairs.map { ($0.thread, [$0.number]) }, uniquingKeysWith: +)
        // concurrentPerform runs several iterations on one thread: each thread always gets its one number, and
        // no two threads share one.
        #expect(numberOfThread.values.allSatisfy { Set($0).count == 1 })
        let numbers = numberOfThread.values.compactMap(\.first)
        #expect(Set(numbers).count == numberOfThread.count)
        #expect(numbers.allSatisfy { $0 >= 0 && $0 < numberOfThread.count })
    }

    @Test func neighbouringStacksOfEveryDefaultSizeGetDistinctStripes() {
        let kibibyte: UInt = 1024
        // Default stack sizes: Apple secondary threads, Linux threads (with and without a guard page), and others.
        let spacings = [
            512 * kibibyte, 528 * kibibyte, 1024 * kibibyte, 2048 * kibibyte, 8192 * kibibyte, 8196 * kibibyte,
        ]
        for spacing in spacings {
            // Stack tops anywhere in the address range threads' stacks are mapped in.
            for base in stride(from: 0x7f00_0000_0000 as UInt, to: 0x7f00_4000_0000, by: 0x0013_5a7c) {
                let stripes = (0..<8).map { ThreadStripe.stripe(ofStackAddress: base - $0 * spacing, count: 32) }
                #expect(Set(stripes).count == 8, "stacks \(spacing / kibibyte) KiB apart below \(base)")
            }
        }
    }
}
