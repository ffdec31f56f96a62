import Foundation

/// Numbers as `JSONSerialization` reads them, converted exactly.
package enum JSONNumber {
    /// The `Double` nearest to a number `JSONSerialization` read.
    ///
    /// A number with more significant digits than a `Double` holds, or beyond `Int64`, can arrive as an
    /// `NSDecimalNumber` (swift-corelibs-foundation does this), whose `doubleValue` is not always the nearest
    /// double: `0.30000000000000004` becomes `0.3000000000000001`, and a value written back and read again drifts.
    /// Its exact decimal text is converted instead.
    /// - Parameter number: a number from `JSONSerialization`.
    package static func double(_ number: NSNumber) -> Double {
        if let decimal = number as? NSDecimalNumber, let exact = Double(decimal.description) { return exact }
        return number.doubleValue
    }
}
