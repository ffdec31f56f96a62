@main
enum BenchMain {
    static func main() { print("flagstaff-bench: no benchmarks yet") }
}
