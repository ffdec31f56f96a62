import Foundation
import Testing

@testable import Flagstaff

/// An immutable test object that keeps the one it replaced, as `ChainedReference` requires.
private final class Version: Sendable {
    let number: Int
    let previous: Version?

    init(number: Int, previous: Version?) {
        self.number = number
        self.previous = previous
    }

    /// How many versions this one keeps alive, itself included.
    var chainLength: Int {
        var count = 0
        var next: Version? = self
        while let version = next {
            count += 1
            next = version.previous
        }
        return count
    }
}

@Suite struct ChainedReferenceTests {
    @Test func replacedObjectsLiveAsLongAsTheCellAndAreFreedWithIt() {
        weak var first: Version?
        weak var second: Version?
        do {
            let cell = ChainedReference<Version>()
            #expect(cell.withCurrent { $0 } == nil)
            cell.replace { Version(number: 1, previous: $0) }
            first = cell.withCurrent { $0 }
            cell.replace { Version(number: ($0?.number ?? 0) + 1, previous: $0) }
            second = cell.withCurrent { $0 }
            #expect(cell.withCurrent { $0?.number } == 2)
            #expect(first?.number == 1, "the replaced object is still alive for readers that loaded it")
        }
        #expect(first == nil && second == nil, "the cell's deinit releases what it published")
    }

    @Test func concurrentReplacementsLoseNone() {
        let cell = ChainedReferenceBox()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 {
                cell.reference.replace { Version(number: ($0?.number ?? 0) + 1, previous: $0) }
                _ = cell.reference.withCurrent { $0?.number }
            }
        }
        #expect(cell.reference.withCurrent { $0?.number } == 2_000)
        #expect(cell.reference.withCurrent { $0?.chainLength } == 2_000)
    }
}

/// A cell shared between threads (a noncopyable value cannot be captured by an escaping closure).
private final class ChainedReferenceBox: Sendable {
    let reference = ChainedReference<Version>()
}
