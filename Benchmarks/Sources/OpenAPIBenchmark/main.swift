import BenchmarkClock
import Foundation

// The generated client over `ApiClientTransport` against the same client over
// swift-openapi-async-http-client's plain adapter, interleaved in one process (Scripts/bench --only
// openapi starts nginx with the operation's answer and runs this in release mode).
//   OpenAPIBenchmark --server http://127.0.0.1:PORT/openapi/bench [--rounds 9] [--duration 1]
// Each round runs every side for `duration` seconds, sequentially and then with 64 operations in
// flight, in a rotated order; the report gives each side's median over the rounds relative to the
// plain adapter, with a second plain adapter as the noise floor (A/A).

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

guard let server = argument("--server").flatMap(URL.init(string:)) else {
    print("usage: OpenAPIBenchmark --server URL [--rounds N] [--duration SECONDS] [--pools N]")
    exit(2)
}
let rounds = argument("--rounds").flatMap(Int.init) ?? 9
let duration = argument("--duration").flatMap(Double.init) ?? 1
let expectedPools = argument("--pools").flatMap(Int.init) ?? 3

let sides = BenchmarkSide.all(serverURL: server, expectedPools: expectedPools)
for side in sides { try await side.perform() } // warm up: connections open, first answers checked

for concurrency in [1, 64] {
    var perSide = Array(repeating: [Double](), count: sides.count) // operations per second, per round
    for round in 0..<rounds {
        for offset in 0..<sides.count {
            let index = (round + offset) % sides.count
            perSide[index].append(try await Sample.measure(concurrency: concurrency, duration: duration, sides[index].perform).operationsPerSecond)
        }
    }
    print("== getPools, \(concurrency == 1 ? "sequential" : "\(concurrency) in flight"): median of \(rounds) rounds of \(duration) s")
    let baseline = perSide[0]
    for (index, side) in sides.enumerated() {
        let ratios = zip(perSide[index], baseline).map { $0 / $1 } // same round: same machine load
        let name = side.name.padding(toLength: 22, withPad: " ", startingAt: 0)
        print(name + String(format: " %9.0f ops/s   %.3f× the plain adapter (rounds %.3f…%.3f)",
                            perSide[index].median, ratios.median,
                            ratios.min() ?? 0, ratios.max() ?? 0))
    }
}
