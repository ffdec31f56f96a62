@main
enum BenchMain {
    static func main() {
        ConsoleBench.run()
    }
}
