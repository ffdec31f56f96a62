/// The version `flagstaff --version` prints: the one place it is written in the source.
enum FlagstaffVersion {
    /// The version of this build (the changelog's `[Unreleased]` section until the first release).
    static let current = "0.1.0-dev"
}
