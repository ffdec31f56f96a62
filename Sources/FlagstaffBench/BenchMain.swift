@main
enum BenchMain {
    static func main() {
        ConsoleBench.run()
        RemoteBench.run()
        CLIBench.run()
        UnleashBench.run()
    }
}
