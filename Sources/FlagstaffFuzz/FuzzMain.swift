import Foundation

/// `FlagstaffFuzz TARGET [ARGUMENT…]`: one fuzz target of a hand-written reader (docs/fuzzing.md).
///
/// - Built by `scripts/fuzz` (`-D FLAGSTAFF_FUZZ`, libFuzzer linked): hands the arguments to libFuzzer, which
///   feeds the target (`FlagstaffFuzz store-file -max_total_time=60 Fuzz/Corpus/store-file`).
/// - Built by a plain `swift build`: runs the files and folders given through the target's checks once each
///   (saved crashes, the seed corpus), without libFuzzer.
///
/// `FlagstaffFuzz list` names the targets.
@main
enum FuzzMain {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, arguments[1] != "-h", arguments[1] != "--help" else {
            print(usage)
            exit(arguments.count >= 2 ? 0 : 2)
        }
        if arguments[1] == "list" {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
            return
        }
        guard let target = FuzzTarget.named(arguments[1]) else {
            FileHandle.standardError.write(
                Data("FlagstaffFuzz: unknown target '\(arguments[1])' (see 'FlagstaffFuzz list')\n".utf8))
            exit(2)
        }
        #if FLAGSTAFF_FUZZ
        exit(LibFuzzer.run(target, arguments: [arguments[0]] + arguments.dropFirst(2)))
        #else
        exit(replay(target, paths: arguments.dropFirst(2).filter { !$0.hasPrefix("-") }))
        #endif
    }

    static let usage = """
        usage: FlagstaffFuzz TARGET [libFuzzer options] [CORPUS…]
               FlagstaffFuzz list
        Fuzzes one reader with libFuzzer when built by scripts/fuzz; a plain build runs the given files
        (or every file of the given folders) through the target's checks once. See docs/fuzzing.md.
        """

    /// Runs every file of `paths` (files, or folders of files) through `target`; a failed check aborts.
    /// - Returns: the exit status: 0, or 2 when nothing was given or a path cannot be read.
    static func replay(_ target: FuzzTarget, paths: [String]) -> Int32 {
        guard !paths.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    "FlagstaffFuzz: built without libFuzzer (use scripts/fuzz); give files or folders to replay\n".utf8)
            )
            return 2
        }
        var count = 0
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                FileHandle.standardError.write(Data("FlagstaffFuzz: no such file or folder: \(path)\n".utf8))
                return 2
            }
            let files =
                isFolder.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("FlagstaffFuzz: cannot read \(file)\n".utf8))
                    return 2
                }
                target.run(data)
                count += 1
            }
        }
        print("\(target.name): \(count) input(s) passed")
        return 0
    }
}
