import BenchmarkClock
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient

/// Whether memory grows with the number of requests sent: many sequential GETs of the user
/// record through the DSL on one engine, in a process of its own, with the process's resident
/// memory sampled every 1,000 requests after a warm-up.
///
/// The growth is the least-squares slope of resident memory over the samples, in KiB per 1,000
/// requests, so one late allocation (a malloc arena, a grown cache) weighs less than it would in
/// a plain last-minus-first.
enum MemoryGrowth {
    /// The DSL on each engine, and URLSession without the DSL as the engine's own floor.
    static let engines = ["raw URLSession", "URLSession", "AsyncHTTPClient"]
    /// Requests sent before the first sample: caches, pools and connections reach their size.
    static let warmUp = 2_000
    /// Requests measured after the warm-up.
    static let measured = 20_000
    static let sampleEvery = 1_000

    struct Result {
        var engine: String
        /// Resident KiB after the warm-up and after each further `sampleEvery` requests.
        var samples: [Int]
        var seconds: Double

        /// Growth in KiB per 1,000 requests: the least-squares slope over the samples.
        var kibPerThousand: Double {
            let points = samples.enumerated().map { (x: Double($0.offset * MemoryGrowth.sampleEvery) / 1_000, y: Double($0.element)) }
            let meanX = points.map(\.x).reduce(0, +) / Double(points.count)
            let meanY = points.map(\.y).reduce(0, +) / Double(points.count)
            let covariance = points.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +)
            let variance = points.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
            return covariance / variance
        }
    }

    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the requests on `engine` in a child process and returns its samples.
    static func measure(engine: String, server: URL, executable: String) throws -> Result {
        let outcome = try ChildProcess.run([executable, "memory", engine, server.absoluteString])
        // The child prints one "rss <KiB>" line per sample, then "<seconds>".
        let lines = outcome.output.split(separator: "\n")
        let samples = lines.compactMap { $0.hasPrefix("rss ") ? Int($0.dropFirst(4)) : nil }
        guard samples.count == measured / sampleEvery + 1, let seconds = lines.last.flatMap({ Double($0) }) else {
            throw Mismatch(description: "memory \(engine) printed: \(outcome.output)")
        }
        return Result(engine: engine, samples: samples, seconds: seconds)
    }

    /// The child side: sends the warm-up and the measured requests one after the other, each a
    /// GET decoded into `UserRecord`, and prints the samples and the measured seconds.
    static func runChild(_ arguments: [String]) async throws {
        guard arguments.count == 2, let server = URL(string: arguments[1]) else {
            throw Mismatch(description: "usage: memory <engine> <server>")
        }
        let request = try request(on: arguments[0], server: server)
        for _ in 0..<warmUp { try await request() }
        print("rss \(residentKiB())")
        let start = Clock.now()
        for sent in 1...measured {
            try await request()
            if sent % sampleEvery == 0 { print("rss \(residentKiB())") }
        }
        print(Clock.now() - start)
    }

    /// One GET of the user record decoded into `UserRecord`, through the DSL on `engine` or, for
    /// "raw URLSession", straight through `URLSession.shared` (the engine's own floor).
    private static func request(on engine: String, server: URL) throws -> @Sendable () async throws -> Void {
        let url = server.appendingPathComponent("user.json")
        switch engine {
        case "raw URLSession":
            return {
                let (data, response) = try await URLSession.shared.data(for: URLRequest(url: url))
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw Mismatch(description: "\(response)") }
                _ = try JSONDecoder().decode(UserRecord.self, from: data)
            }
        case "URLSession", "AsyncHTTPClient":
            let transport: any HTTPTransport = engine == "AsyncHTTPClient" ? AsyncHTTPClientTransport.shared : URLSessionTransport()
            let client = ApiClient(transport: transport, baseUrl: server).httpStatusCodeRange(200..<201)
            return { let _: UserRecord = try await client.get("user.json").perform() }
        default:
            throw Mismatch(description: "unknown engine \(engine)")
        }
    }

    /// This process's resident memory now (`VmRSS` of `/proc/self/status`), in KiB.
    static func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
