import Flagstaff

/// A flag server attached to the registry as a remote source (`flagstaff console --serve`): the header shows it
/// like any remote source (its name says who is connected, its status when a client was last seen), and the
/// detail pane adds what the server's clients reported evaluating for the selected member.
package protocol ServedEvaluationReport: RemoteSource {
    /// What clients' metrics reported for a member, e.g. "SDK metrics: 12 evaluations (9 on, 3 off)", or `nil`
    /// when none reported it.
    /// - Parameter key: the member's key.
    func evaluationSummary(forKey key: String) -> String?

    /// The apps connected now, for the apps overlay (`A`): open streams first (the longest connected first),
    /// then the apps that poll (the most recently seen first). Read about once a second while the overlay is
    /// open, on the console's thread.
    var connectedApps: [ConnectedApp] { get }
}

extension ConsoleLayout {
    /// The served-evaluation fact of the detail pane's third line, if a flag server is attached and its clients
    /// reported the key.
    static func servedFact(_ flag: ConsoleFlag, _ context: Context) -> String? {
        flag.servedSummary.map(context.clean)
    }
}
