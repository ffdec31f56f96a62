#if FLAGSTAFF_FUZZ
import CLibFuzzer
import Foundation

/// Hands a target to libFuzzer's driver (`LLVMFuzzerRunDriver`). The build links libFuzzer without its `main`
/// (scripts/fuzz), so this executable keeps its own and picks the target from its arguments.
enum LibFuzzer {
    /// The target the driver's callback feeds. Written once, before the driver starts; libFuzzer runs inputs on
    /// this thread only (no `-jobs`/`-workers` in one process).
    nonisolated(unsafe) private static var selected: FuzzTarget?

    /// Runs libFuzzer with `arguments` (the program name first) on `target`.
    /// - Returns: libFuzzer's exit status.
    static func run(_ target: FuzzTarget, arguments: [String]) -> Int32 {
        selected = target
        var argc = Int32(arguments.count)
        // The C strings live until exit: libFuzzer keeps pointers into argv.
        let strings = arguments.map { strdup($0) }
        let vector = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { vector[index] = string }
        vector[strings.count] = nil
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = vector
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let input = data.map { Data(bytes: $0, count: size) } ?? Data()
            LibFuzzer.selected?.run(input)
            return 0
        }
    }
}
#endif
