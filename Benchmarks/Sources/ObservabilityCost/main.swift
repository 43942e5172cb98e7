import CoreMetrics
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InMemoryTracing
import Logging
import SwiftApiDsl
import SwiftApiDslMock
import SwiftApiDslServerObservability
import Tracing

// What tracing, metrics and logging cost per call, measured in one run: every client performs
// the same calls, in rounds that interleave the clients (so a busy moment of a shared machine
// falls on all of them), and each is reported as a ratio to the plain client of its own round.
//
//   swift run -c release --package-path Benchmarks ObservabilityCost [rounds] [calls]
//
// Over the mock (no network, so the fixed cost shows whole), and over loopback to nginx when
// NGINX_URL is set (Scripts/lib/nginx.sh: what a service pays on a real call).

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let rounds = arguments.first ?? 9
let callsPerRound = arguments.dropFirst().first ?? 4_000

/// A log handler that drops every line at the level it is asked for: what a quiet production
/// logger costs the call (the observer still builds nothing for a dropped line).
let quietLogger = Logger(label: "cost") { _ in
    var handler = SwiftLogNoOpLogHandler()
    handler.logLevel = .info
    return handler
}

/// The clients compared, made from the same base client.
func variants(of base: ApiClient) -> [(name: String, client: ApiClient)] {
    [
        ("plain", base),
        ("one empty observer", base.observer { _ in }),
        ("tracing(NoOpTracer())", base.tracing(NoOpTracer())),
        // A tracer that records: swift-distributed-tracing's in-memory one, which keeps every span.
        ("tracing(InMemoryTracer())", base.tracing(InMemoryTracer())),
        ("tracing + metrics + logging (no-op backends)", base.tracing(NoOpTracer()).metrics(NOOPMetricsHandler.instance).logging(quietLogger)),
    ]
}

/// Microseconds per call of `client` over `calls` calls to `path`.
func measure(_ client: ApiClient, path: String, calls: Int) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<calls { _ = try await client.get(path).perform() }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return seconds / Double(calls) * 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Runs `rounds` rounds over `clients`, rotating which goes first, and prints each client's
/// median µs per call and the median of its per-round ratios to the plain client.
func compare(_ title: String, clients: [(name: String, client: ApiClient)], path: String, calls: Int) async throws {
    // Warm-up: the first calls of a client make its caches and connections.
    for variant in clients { _ = try await measure(variant.client, path: path, calls: max(calls / 10, 10)) }
    var micros = Array(repeating: [Double](), count: clients.count)
    var ratios = Array(repeating: [Double](), count: clients.count)
    for round in 0..<rounds {
        var thisRound = Array(repeating: 0.0, count: clients.count)
        for offset in 0..<clients.count {
            let index = (round + offset) % clients.count
            thisRound[index] = try await measure(clients[index].client, path: path, calls: calls)
        }
        for index in clients.indices {
            micros[index].append(thisRound[index])
            ratios[index].append(thisRound[index] / thisRound[0])
        }
    }
    print("\n\(title): \(rounds) rounds of \(calls) calls per client, interleaved")
    print("| client | µs per call (median) | ratio to plain (median of rounds) | ratio range |")
    print("|---|---|---|---|")
    for index in clients.indices {
        let range = String(format: "%.3f–%.3f", ratios[index].min() ?? 0, ratios[index].max() ?? 0)
        print(String(format: "| %@ | %.1f | %.3f | %@ |", clients[index].name, median(micros[index]), median(ratios[index]), range))
    }
}

let mock = ApiClientMock(baseUrl: URL(string: "https://api.example.com/v1")!)
mock.stub(.get, "items", statusCode: 200)
try await compare("Over the mock", clients: variants(of: mock.client), path: "items", calls: callsPerRound)

// nginx serves a small static document (Scripts/lib/nginx.sh): the server's own time stays small
// and steady beside the client's.
if let root = ProcessInfo.processInfo.environment["NGINX_URL"], let url = URL(string: root) {
    try await compare("Over loopback (URLSession to nginx, a 458-byte document)", clients: variants(of: ApiClient(baseUrl: url)),
                      path: "doc.json", calls: max(callsPerRound / 4, 50))
}
