// swift-tools-version:6.1
// 6.1: package traits (the `Server` trait below).
import PackageDescription

/// A dependency only the `Server` trait needs.
let server = TargetDependencyCondition.when(traits: ["Server"])

let package = Package(
    name: "Flagstaff",
    // The minimums are those of the standard `Synchronization` module (`Atomic`, `Mutex`), which the core uses
    // for lock-free flag reads and its few locks: iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2.
    platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Flagstaff", targets: ["Flagstaff"]),
        .library(name: "FlagstaffTesting", targets: ["FlagstaffTesting"]),
        .library(name: "FlagstaffRemote", targets: ["FlagstaffRemote"]),
        .library(name: "FlagstaffFirebase", targets: ["FlagstaffFirebase"]),
        .library(name: "FlagstaffUnleash", targets: ["FlagstaffUnleash"]),
        .library(name: "FlagstaffFlagd", targets: ["FlagstaffFlagd"]),
        .library(name: "FlagstaffConsole", targets: ["FlagstaffConsole"]),
        .executable(name: "flagstaff", targets: ["FlagstaffCLI"]),
    ],
    // `Server`: `flagstaff serve`, `flagstaff console --serve` and the packages they need (Hummingbird, swift-nio,
    // swift-service-lifecycle, swift-http-types and everything below them). On by default, so `swift run
    // flagstaff`, `flagstaff serve` and `swift test` work as they are; an app depends with `traits: []` and
    // resolves only swift-log and swift-argument-parser (see README "Add it to an app"). Every dependency on
    // those packages is conditional on the trait: one that is not would make every app resolve them again
    // (`scripts/check-consumer` fails then). Without the trait the libraries, the console and the `flagstaff`
    // command (without `serve`) build; FlagstaffServer, its tests and the benchmarks' server area need it.
    traits: [
        .trait(name: "Server", description: "flagstaff serve and console --serve (Hummingbird, swift-nio)"),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        // Only the `flagstaff` command uses it; an app resolves it but builds none of it.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Server trait only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Already in hummingbird's graph (nothing more to build): FlagstaffServer names their types directly.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // Core: features, groups, registry, resolution, search, stores, manifest. Foundation only.
        .target(name: "Flagstaff"),
        .target(name: "FlagstaffTesting", dependencies: ["Flagstaff"]),
        .target(
            name: "FlagstaffRemote",
            dependencies: ["Flagstaff", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "FlagstaffFirebase", dependencies: ["Flagstaff", "FlagstaffRemote"]),
        .target(
            name: "FlagstaffUnleash",
            dependencies: ["Flagstaff", "FlagstaffRemote", .product(name: "Logging", package: "swift-log")]
        ),
        // flagd's flag definitions evaluated in-process (JsonLogic with flagd's operators). Foundation only; the
        // HTTP source of definitions (FlagdSource(url:)) uses FlagstaffRemote's transport, as FlagstaffUnleash does.
        .target(name: "FlagstaffFlagd", dependencies: ["Flagstaff", "FlagstaffRemote"]),
        // ncursesw: the module map links it directly. No `pkgConfig:` because SwiftPM drops the only flags
        // ncursesw.pc adds (-D_XOPEN_SOURCE=600, -D_DEFAULT_SOURCE) and warns about them; shim.h defines what
        // the wide API needs instead.
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        .target(name: "FlagstaffConsole", dependencies: ["Flagstaff", "CNCurses"]),
        // zlib, for the gzip bodies `flagstaff serve` sends to clients that accept them.
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The readers of `flagstaff serve`'s request bodies (OFREP context, Unleash register/metrics, frontend
        // POST): Foundation only, so the fuzz build reads them without compiling the HTTP stack.
        .target(name: "FlagstaffServerBodies", dependencies: ["Flagstaff"]),
        // `flagstaff serve`: the registry's effective values over the Unleash frontend and client APIs and OFREP.
        .target(
            name: "FlagstaffServer",
            dependencies: [
                "Flagstaff", "FlagstaffServerBodies", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                // Its connection-state handler: the conditional-GET fast path is placed after it.
                .product(name: "HummingbirdCore", package: "hummingbird", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: server),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: server),
            ]
        ),
        .executableTarget(
            name: "FlagstaffCLI",
            dependencies: [
                "Flagstaff", "FlagstaffConsole", "FlagstaffRemote", "FlagstaffFirebase", "FlagstaffUnleash",
                "FlagstaffFlagd", .target(name: "FlagstaffServer", condition: server),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Not a product (an app depending on the package never sees it): `swift run -c release flagstaff-bench`
        // runs it by its target name, which is why the name is the command's.
        .executableTarget(
            name: "flagstaff-bench",
            // FlagstaffTerminalDriver drives tmux for the terminal benchmark.
            dependencies: [
                "Flagstaff", "FlagstaffConsole", "FlagstaffUnleash", "FlagstaffTerminalDriver", "FlagstaffRemote",
                "FlagstaffFirebase", "FlagstaffFlagd", .target(name: "FlagstaffServer", condition: server),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
            ],
            path: "Sources/FlagstaffBench"
        ),

        // Not a product: the fuzz targets of every hand-written reader (docs/fuzzing.md). `scripts/fuzz` builds it
        // for libFuzzer (with -D FLAGSTAFF_FUZZ); a plain build replays saved inputs through the same checks.
        .executableTarget(
            name: "FlagstaffFuzz",
            dependencies: [
                "Flagstaff", "FlagstaffUnleash", "FlagstaffRemote", "FlagstaffFirebase", "FlagstaffServerBodies",
                "FlagstaffFlagd", "CLibFuzzer",
            ]
        ),
        // libFuzzer's `LLVMFuzzerRunDriver`, declared only: FlagstaffFuzz calls it in the fuzz build, which links
        // libFuzzer (scripts/fuzz).
        .systemLibrary(name: "CLibFuzzer"),

        // Not a product: drives tmux, parses its screens and spawns processes, for the terminal benchmark and
        // the end-to-end tests (through FlagstaffTestSupport). Foundation only.
        .target(name: "FlagstaffTerminalDriver"),

        // Shared helpers for tests only: loopback HTTP server, running built products; re-exports
        // FlagstaffTerminalDriver (tmux driver, process spawning).
        .target(
            name: "FlagstaffTestSupport", dependencies: ["Flagstaff", "FlagstaffTerminalDriver"],
            path: "Tests/FlagstaffTestSupport"
        ),

        // A child process for the multi-process and crash tests of FileOverrideStore.
        .executableTarget(name: "StoreStressTool", dependencies: ["Flagstaff"], path: "Tests/StoreStressTool"),

        .testTarget(
            name: "FlagstaffTests",
            dependencies: ["Flagstaff", "FlagstaffTesting", "FlagstaffTestSupport", "StoreStressTool"]),
        .testTarget(name: "FlagstaffTestingTests", dependencies: ["Flagstaff", "FlagstaffTesting"]),
        .testTarget(
            name: "FlagstaffRemoteTests", dependencies: ["FlagstaffRemote", "FlagstaffTesting", "FlagstaffTestSupport"]),
        .testTarget(
            name: "FlagstaffFirebaseTests",
            dependencies: ["FlagstaffFirebase", "FlagstaffTesting", "FlagstaffTestSupport"]),
        .testTarget(
            name: "FlagstaffUnleashTests",
            dependencies: ["FlagstaffUnleash", "FlagstaffTesting", "FlagstaffTestSupport"]),
        .testTarget(name: "FlagstaffFlagdTests", dependencies: ["FlagstaffFlagd", "FlagstaffTestSupport"]),
        .testTarget(
            name: "FlagstaffConsoleTests",
            dependencies: ["FlagstaffConsole", "FlagstaffTesting", "FlagstaffTestSupport"]),
        .testTarget(
            name: "FlagstaffServerTests",
            dependencies: [
                "FlagstaffServer", "FlagstaffServerBodies", "FlagstaffUnleash", "FlagstaffTesting",
                "FlagstaffTestSupport", "FlagstaffCLI",
            ]
        ),
        .testTarget(
            name: "FlagstaffCLITests",
            dependencies: ["Flagstaff", "FlagstaffCLI", "FlagstaffRemote", "FlagstaffTestSupport"]),
        .testTarget(name: "FlagstaffFuzzTests", dependencies: ["FlagstaffFuzz"]),
    ],
    swiftLanguageModes: [.v6]
)
