import BenchmarkClock
import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import SwiftApiDslCache

/// One request answered by `SwiftApiDslMock` from a route stub.
enum MockedRequest {
    /// The GET, returning the raw body: what the mock and the DSL cost.
    static func raw() throws -> @Sendable () async throws -> Void {
        let client = try stubbedClient()
        return { try await client.get("users/7").perform() }
    }

    /// The same GET decoded into the 458-byte `UserRecord`: what a test pays per call.
    static func decoded() throws -> @Sendable () async throws -> Void {
        let client = try stubbedClient()
        return { let _: UserRecord = try await client.get("users/7").perform() }
    }

    /// The same GET answered by the client's `HTTPCache` from memory: a fresh hit, the mock
    /// reached once before the measurement and never during it.
    static func cacheHit() async throws -> @Sendable () async throws -> Void {
        let client = try stubbedClient(headers: ["Cache-Control": "max-age=86400"], cached: true)
        let primed = try await client.get("users/7").perform()
        guard primed.source == .network, try await client.get("users/7").perform().source == .stored else {
            throw URLError(.cannotLoadFromNetwork)
        }
        return { try await client.get("users/7").perform() }
    }

    private static func stubbedClient(headers: [String: String] = [:], cached: Bool = false) throws -> ApiClient {
        guard let baseUrl = URL(string: "https://api.example.com/v1") else { throw URLError(.badURL) }
        let base = ApiClient(baseUrl: baseUrl)
        let mock = (cached ? base.cache(.memory()) : base).mocked()
        try mock.stub(.get, "users/:id", body: UserRecord.sample, headers: headers)
        return mock.client
    }

    /// A cache hit against a mocked request, interleaved in one run: `cache-hit [--rounds N]
    /// [--duration S]` prints both medians and their ratio (target ≤ 1).
    static func compareCacheHit(_ arguments: [String]) async throws {
        var values: [String: String] = [:]
        for index in stride(from: 0, to: arguments.count - 1, by: 2) { values[arguments[index]] = arguments[index + 1] }
        let rounds = values["--rounds"].flatMap(Int.init) ?? 5
        let duration = values["--duration"].flatMap(Double.init) ?? 0.5
        let operations = [("mocked GET, raw body", try raw()), ("cache hit (memory), raw body", try await cacheHit())]
        for (_, operation) in operations { _ = try await Sample.measure(concurrency: 1, duration: 0.2, operation) }
        var samples = Array(repeating: [Sample](), count: operations.count)
        for _ in 0..<rounds {
            for (index, (_, operation)) in operations.enumerated() {
                samples[index].append(try await Sample.measure(concurrency: 1, duration: duration, operation))
            }
        }
        let micros = samples.map { $0.map(\.wallMicrosecondsPerOperation).median }
        for (index, (name, _)) in operations.enumerated() {
            print("\(name): \(String(format: "%.2f", micros[index])) µs/request, CPU \(String(format: "%.2f", samples[index].map(\.cpuMicrosecondsPerOperation).median)) µs")
        }
        let ratio = micros[1] / micros[0]
        print("cache hit / mocked request: \(String(format: "%.3f", ratio)) (target ≤ 1: \(ratio <= 1 ? "met" : "missed"))")
    }
}
