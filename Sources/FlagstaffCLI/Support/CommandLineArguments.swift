import ArgumentParser

/// What `flagstaff` does with a command line before ArgumentParser sees it: options given before the
/// subcommand, unknown subcommands, `help` for an unknown subcommand and `--version`.
///
/// ArgumentParser reads an option only after the subcommand that declares it, and with `console` as the
/// default subcommand an unknown subcommand name reads as a stray argument of `console`. This pure step
/// fixes both (it is tested without a process).
enum CommandLineArguments {
    /// What to do with a command line.
    enum Plan: Equatable {
        /// Parse these arguments (possibly reordered).
        case parse([String])
        /// Print the version and exit 0.
        case printVersion
        /// A usage error (exit status 2) with its message.
        case usageError(String)
    }

    /// The options every subcommand takes (``RegistrySourceOptions``), which may come before the subcommand.
    static let leadingOptions: Set<String> = ["--store", "--manifest", "--lock-timeout"]

    /// Decides what to do with a command line.
    /// - Parameters:
    ///   - arguments: the arguments, without the program name.
    ///   - root: the root command, whose subcommands are the names accepted.
    /// - Returns: the plan.
    static func plan(_ arguments: [String], root: any ParsableCommand.Type = FlagstaffCommand.self) -> Plan {
        if arguments == ["--version"] { return .printVersion }
        // Leading `--store X`, `--manifest=X`…: set aside, then put after the subcommand path.
        var moved: [String] = []
        var rest = arguments
        while let option = leadingOption(at: 0, in: rest) {
            moved += option
            rest.removeFirst(option.count)
        }
        guard let first = rest.first, !first.hasPrefix("-") else {
            // No subcommand: the default one (console) takes the options where they are.
            return .parse(arguments)
        }
        if first == "help" {
            var command: any ParsableCommand.Type = root
            for name in rest.dropFirst() where !name.hasPrefix("-") {
                guard let next = subcommand(named: name, of: command) else {
                    return .usageError(unknownSubcommand(name, of: command))
                }
                command = next
            }
            return .parse(rest)
        }
        guard var command = subcommand(named: first, of: root) else {
            return .usageError(unknownSubcommand(first, of: root))
        }
        // A group (`bisect`, `profile`) names its subcommand next: an unknown one is named as such, not reported
        // as whatever ArgumentParser trips on first (a moved `--store`, a stray argument). Leading options between
        // a group and its subcommand (`bisect --store s.json good`) are set aside too.
        var path = first
        var index = 1
        while index < rest.count, !command.configuration.subcommands.isEmpty,
            command.configuration.defaultSubcommand == nil
        {
            if let option = leadingOption(at: index, in: rest) {
                moved += option
                rest.removeSubrange(index..<(index + option.count))
                continue
            }
            let name = rest[index]
            guard !name.hasPrefix("-") else { break }
            guard let next = subcommand(named: name, of: command) else {
                return .usageError(unknownSubcommand(name, of: command, path: path))
            }
            command = next
            path += " " + name
            index += 1
        }
        guard !moved.isEmpty else { return .parse(arguments) }
        // After the whole subcommand path: at the end, or before a `--` that ends the options.
        var reordered = rest
        reordered.insert(contentsOf: moved, at: rest.firstIndex(of: "--") ?? rest.endIndex)
        return .parse(reordered)
    }

    /// The words of the leading option (``leadingOptions``) at `index` of `arguments` (`--store X` or
    /// `--store=X`), or `nil` when there is none there (or its value is missing).
    private static func leadingOption(at index: Int, in arguments: [String]) -> [String]? {
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        guard leadingOptions.contains(name) else { return nil }
        guard name == argument else { return [argument] }
        guard index + 1 < arguments.count else { return nil }
        return [argument, arguments[index + 1]]
    }

    /// The names of a command's subcommands, in the order its help lists them.
    static func subcommandNames(of command: any ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.map { $0._commandName }
    }

    private static func subcommand(named name: String, of command: any ParsableCommand.Type)
        -> (any ParsableCommand.Type)?
    {
        command.configuration.subcommands.first { $0._commandName == name || $0.configuration.aliases.contains(name) }
    }

    /// `unknown subcommand 'lst'; did you mean 'list'?`: the subcommand the name begins (three characters or
    /// more), else the nearest by edit distance (to the whole name or its start) when close enough, else the
    /// list of subcommands.
    static func unknownSubcommand(_ name: String, of command: any ParsableCommand.Type, path: String? = nil) -> String {
        let names = subcommandNames(of: command)
        let of = path.map { " of '\($0)'" } ?? ""
        if name.count >= 3, let extended = names.first(where: { $0.hasPrefix(name.lowercased()) }) {
            return "unknown subcommand '\(name)'\(of); did you mean '\(extended)'?"
        }
        guard name.count <= 64 else {
            return "unknown subcommand '\(name)'\(of); expected one of: \(names.joined(separator: ", "))"
        }
        // A misspelt start of a long name (`pendng`) counts as close to it too.
        let typed = name.lowercased()
        func distance(to candidate: String) -> Int {
            let whole = editDistance(typed, candidate)
            guard typed.count >= 4, candidate.count > typed.count else { return whole }
            return min(whole, editDistance(typed, String(candidate.prefix(typed.count))))
        }
        let scored = names.map { ($0, distance(to: $0)) }.min { $0.1 < $1.1 }
        if let (nearest, distance) = scored, distance <= max(2, nearest.count / 3) {
            return "unknown subcommand '\(name)'\(of); did you mean '\(nearest)'?"
        }
        return "unknown subcommand '\(name)'\(of); expected one of: \(names.joined(separator: ", "))"
    }

    /// The Levenshtein distance between two strings (in characters).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
