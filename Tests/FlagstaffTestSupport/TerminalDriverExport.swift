// The tmux driver, the screen parser and process spawning live in `FlagstaffTerminalDriver` (under
// `Sources/`, so the benchmarks can use them without depending on a test target); tests that import
// FlagstaffTestSupport get them too.
@_exported import FlagstaffTerminalDriver
