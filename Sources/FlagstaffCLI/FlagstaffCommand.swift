import ArgumentParser

@main
struct FlagstaffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "flagstaff", abstract: "Feature-flag console and CLI.")
    func run() throws { print("flagstaff: not yet implemented") }
}
