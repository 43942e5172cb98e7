import AsyncHTTPClient
import BenchmarkClock
import Foundation
import SwiftApiDslAsyncHTTPClient

/// Runs every benchmark once, interleaved, and prints the tables of Benchmarks/NOTES.md with
/// each target marked met or missed.
struct Report {
    var server: URL
    var sink: URL
    var www: URL
    var bigFile: URL
    var scratch: URL
    var rounds = 5
    var duration = 0.5
    /// The sections to run: `roundtrips`, `dsl`, `transfers` and `memory`; `floor` (``EngineFloor``) only when asked for.
    var sections: Set<String> = ["roundtrips", "dsl", "transfers", "memory"]
    /// The only engine whose round trips run, if given.
    var engine: String?
    /// Profiling mode (`--profile COUNT`): the round trips of ``engine`` on ``side`` only, each
    /// concurrency of ``concurrencies`` run exactly COUNT times, untimed, printing nothing.
    var profileCount: Int?
    /// `raw` or `dsl`, or `floorN` (the Nth side of ``EngineFloor``): the only side run when
    /// profiling; raw and DSL if not given.
    var side: String?
    /// The numbers of requests in flight.
    var concurrencies = [1, 64]

    /// Reads `--server URL --sink URL --www DIR --big FILE --scratch DIR [--rounds N]
    /// [--duration SECONDS] [--only SECTION,…]`.
    init(arguments: [String]) throws {
        var values: [String: String] = [:]
        var index = 0
        while index + 1 < arguments.count {
            values[arguments[index]] = arguments[index + 1]
            index += 2
        }
        guard let server = values["--server"].flatMap(URL.init(string:)), let sink = values["--sink"].flatMap(URL.init(string:)),
              let www = values["--www"], let big = values["--big"], let scratch = values["--scratch"]
        else { throw ChildProcess.Failure(description: "usage: report --server URL --sink URL --www DIR --big FILE --scratch DIR [--rounds N] [--duration S] [--only SECTION,…] [--engine NAME] [--concurrency 1,64] [--profile COUNT --side raw|dsl|floorN]") }
        self.server = server
        self.sink = sink
        self.www = URL(fileURLWithPath: www)
        bigFile = URL(fileURLWithPath: big)
        self.scratch = URL(fileURLWithPath: scratch)
        rounds = values["--rounds"].flatMap(Int.init) ?? rounds
        duration = values["--duration"].flatMap(Double.init) ?? duration
        engine = values["--engine"]
        if let only = values["--only"] { sections = Set(only.split(separator: ",").map(String.init)) }
        profileCount = values["--profile"].flatMap(Int.init)
        side = values["--side"]
        if let list = values["--concurrency"] { concurrencies = list.split(separator: ",").compactMap { Int($0) } }
    }

    func run() async throws {
        try UserRecord.json().write(to: www.appendingPathComponent("user.json"))
        if let profileCount { return try await profile(count: profileCount) }
        if sections.contains("roundtrips") {
            let rawClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.defaultConfiguration)
            try await roundTrips(rawClient: rawClient)
            try await rawClient.shutdown()
        }
        if sections.contains("floor") {
            let rawClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.defaultConfiguration)
            try await engineFloor(rawClient: rawClient)
            try await rawClient.shutdown()
        }
        if sections.contains("dsl") { try await inMemory() }
        if sections.contains("transfers") { try largeTransfers() }
        if sections.contains("memory") { try memoryGrowth() }
    }

    // MARK: Round trips

    /// Runs the selected round trips `count` times each, for `valgrind --tool=callgrind`:
    /// the instructions of one request are the difference between two counts, divided.
    private func profile(count: Int) async throws {
        let rawClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.defaultConfiguration)
        let pairs = try RoundTrip.pairs(server: server, rawClient: rawClient).filter { engine == nil || $0.raw.engine == engine }
        if let side, side.hasPrefix("floor"), let index = Int(side.dropFirst(5)) {
            for pair in pairs {
                let operation = EngineFloor.sides(engine: pair.raw.engine, server: server, client: rawClient)[index].1
                for concurrency in concurrencies { try await Sample.run(concurrency: concurrency, count: count, operation) }
            }
            return try await rawClient.shutdown()
        }
        for pair in pairs {
            for trip in [pair.raw, pair.dsl] where side == nil || side == (trip.isDSL ? "dsl" : "raw") {
                for concurrency in concurrencies { try await Sample.run(concurrency: concurrency, count: count, trip.perform) }
            }
        }
        try await rawClient.shutdown()
    }

    private func roundTrips(rawClient: HTTPClient) async throws {
        let pairs = try RoundTrip.pairs(server: server, rawClient: rawClient).filter { engine == nil || $0.raw.engine == engine }
        for pair in pairs {
            for concurrency in concurrencies {
                for trip in [pair.raw, pair.dsl] { _ = try await Sample.measure(concurrency: concurrency, duration: 0.3, trip.perform) }
            }
        }
        // Each round measures raw, the DSL and raw again (the A/A floor: what the same raw call
        // measures against itself in the same run), the order rotated each round so that no side
        // always runs on a warmer machine. Ratios are taken within a round, then their median.
        // ratios[engine][concurrency] = (DSL/raw, raw again/raw); samples[engine][concurrency][isDSL]
        var ratios: [String: [Int: (dsl: [Double], floor: [Double])]] = [:]
        var samples: [String: [Int: [Bool: [Sample]]]] = [:]
        for round in 0..<rounds {
            for pair in pairs {
                for concurrency in concurrencies {
                    let sides = [(pair.raw, 0), (pair.dsl, 1), (pair.raw, 2)]
                    var rates = [Double](repeating: .nan, count: 3)
                    for offset in 0..<3 {
                        let (trip, slot) = sides[(round + offset) % 3]
                        let sample = try await Sample.measure(concurrency: concurrency, duration: duration, trip.perform)
                        rates[slot] = sample.operationsPerSecond
                        if slot < 2 { samples[trip.engine, default: [:]][concurrency, default: [:]][trip.isDSL, default: []].append(sample) }
                    }
                    ratios[pair.raw.engine, default: [:]][concurrency, default: ([], [])].dsl.append(rates[1] / rates[0])
                    ratios[pair.raw.engine, default: [:]][concurrency, default: ([], [])].floor.append(rates[2] / rates[0])
                }
            }
        }

        print("## GET + decode of a 458-byte JSON document (nginx on loopback)\n")
        print("Medians of \(rounds) interleaved rounds of \(duration) s per side; DSL/raw and the A/A floor "
            + "(raw again/raw) are medians of each round's ratio.\n")
        print("| engine | in flight | raw req/s | DSL req/s | DSL/raw | A/A floor | raw CPU µs/req | DSL CPU µs/req | target DSL/raw |")
        print("|---|---|---|---|---|---|---|---|---|")
        var dslThroughput: [String: [Int: Double]] = [:]
        for pair in pairs {
            for concurrency in concurrencies {
                let raw = samples[pair.raw.engine]?[concurrency]?[false] ?? []
                let dsl = samples[pair.dsl.engine]?[concurrency]?[true] ?? []
                let rawRate = raw.map(\.operationsPerSecond).median
                let dslRate = dsl.map(\.operationsPerSecond).median
                dslThroughput[pair.dsl.engine, default: [:]][concurrency] = dslRate
                let ratio = ratios[pair.raw.engine]?[concurrency]?.dsl.median ?? .nan
                let floor = ratios[pair.raw.engine]?[concurrency]?.floor.median ?? .nan
                print("| \(pair.raw.engine) | \(concurrency) | \(format(rawRate, 0)) | \(format(dslRate, 0)) | \(format(ratio, 3)) | \(format(floor, 3)) "
                    + "| \(format(raw.map(\.cpuMicrosecondsPerOperation).median, 1)) | \(format(dsl.map(\.cpuMicrosecondsPerOperation).median, 1)) "
                    + "| ≥ \(format(target(pair.raw.engine), 2)): \(verdict(ratio >= target(pair.raw.engine))) |")
            }
        }
        let speedup = (dslThroughput["AsyncHTTPClient"]?[64] ?? .nan) / (dslThroughput["URLSession"]?[64] ?? .nan)
        print("\nDSL over AsyncHTTPClient / DSL over URLSession at 64 in flight: **\(format(speedup, 2))×** (target ≥ 3×: \(verdict(speedup >= 3)))\n")
    }

    // MARK: The engine's floor

    /// On each engine (or the one of `--engine`): the raw call, the engine APIs a transport can
    /// build on (``EngineFloor``), the DSL, and the raw call again, in turn each round.
    private func engineFloor(rawClient: HTTPClient) async throws {
        for pair in try RoundTrip.pairs(server: server, rawClient: rawClient) where engine == nil || pair.raw.engine == engine {
            try await engineFloor(pair: pair, rawClient: rawClient)
        }
    }

    private func engineFloor(pair: (raw: RoundTrip, dsl: RoundTrip), rawClient: HTTPClient) async throws {
        let raw = pair.raw.engine == "URLSession" ? "raw `URLSession.shared.data(for:)`" : "raw `async` API"
        let sides = [("\(raw) (the 1.00 of the round trips)", pair.raw.perform)]
            + EngineFloor.sides(engine: pair.raw.engine, server: server, client: rawClient)
            + [("DSL (`client.get(…).perform()`)", pair.dsl.perform), ("\(raw) again (A/A floor)", pair.raw.perform)]
        print("## Over \(pair.raw.engine): what the engine's APIs cost a transport\n")
        print("Medians of \(rounds) interleaved rounds of \(duration) s per side, the order rotated each round; "
            + "ratios of requests per second to the \(raw) call, taken within each round.\n")
        print("| in flight | side | ratio to raw | CPU µs/req | DSL/side |")
        print("|---|---|---|---|---|")
        for concurrency in concurrencies {
            for side in sides { _ = try await Sample.measure(concurrency: concurrency, duration: 0.3, side.1) }
            var ratios = Array(repeating: [Double](), count: sides.count)
            var dslOver = Array(repeating: [Double](), count: sides.count)
            var cpu = Array(repeating: [Double](), count: sides.count)
            let dsl = sides.count - 2
            for round in 0..<rounds {
                var rates = Array(repeating: Double.nan, count: sides.count)
                for offset in 0..<sides.count {
                    let index = (round + offset) % sides.count
                    let sample = try await Sample.measure(concurrency: concurrency, duration: duration, sides[index].1)
                    rates[index] = sample.operationsPerSecond
                    cpu[index].append(sample.cpuMicrosecondsPerOperation)
                }
                for index in sides.indices {
                    ratios[index].append(rates[index] / rates[0])
                    dslOver[index].append(rates[dsl] / rates[index])
                }
            }
            for (index, side) in sides.enumerated() {
                print("| \(concurrency) | \(side.0) | \(format(ratios[index].median, 3)) | \(format(cpu[index].median, 1)) "
                    + "| \(index == dsl ? "" : format(dslOver[index].median, 3)) |")
            }
        }
        print("")
    }

    // MARK: In memory

    private func inMemory() async throws {
        let measurements: [(name: String, target: Double?, operation: @Sendable () async throws -> Void)] = [
            ("request building: 8 modifiers (JSON body included), authentication, 3 validators, canned answer", 5, try InMemoryRequests.fullyDressedRequest()),
            ("Foundation alone: the same URLRequest and an HTTPURLResponse, no DSL (floor)", nil, InMemoryRequests.foundationFloor()),
            ("mocked GET through ApiClientMock (route stub), raw body", 20, try MockedRequest.raw()),
            ("mocked GET through ApiClientMock, decoded into the 458-byte record", nil, try MockedRequest.decoded()),
            ("the same GET answered by HTTPCache from memory (a fresh hit), raw body", 20, try await MockedRequest.cacheHit()),
        ]
        for measurement in measurements { _ = try await Sample.measure(concurrency: 1, duration: 0.2, measurement.operation) }
        var samples = Array(repeating: [Sample](), count: measurements.count)
        for _ in 0..<rounds {
            for (index, measurement) in measurements.enumerated() {
                samples[index].append(try await Sample.measure(concurrency: 1, duration: duration, measurement.operation))
            }
        }
        print("## The DSL without I/O (one task, sequential)\n")
        print("| measurement | µs/request | CPU µs/request | target |")
        print("|---|---|---|---|")
        for (index, measurement) in measurements.enumerated() {
            let micros = samples[index].map(\.wallMicrosecondsPerOperation).median
            let target = measurement.target.map { "≤ \(format($0, 0)) µs: \(verdict(micros <= $0))" } ?? "(for comparison)"
            print("| \(measurement.name) | \(format(micros, 2)) | \(format(samples[index].map(\.cpuMicrosecondsPerOperation).median, 2)) | \(target) |")
        }
        let medians = samples.map { $0.map(\.wallMicrosecondsPerOperation).median }
        let hitRatio = medians[4] / medians[2]
        print("\nA cache hit costs \(format(hitRatio, 3))× a mocked request (target ≤ 1: \(verdict(hitRatio <= 1))).")
        print("")
    }

    // MARK: Transfers

    private func largeTransfers() throws {
        let setup = Transfers.Setup(server: server, sink: sink, bigFile: bigFile, scratch: scratch,
                                    executable: CommandLine.arguments[0])
        print("## 1 GiB transfers (each in its own process; MB = 10⁶ bytes)\n")
        print("`URLSession floor`: the same download through a session delegate that writes each chunk inside its callback, "
            + "without the library (DownloadFloor.swift). \"At start\": the process's resident memory before the transfer.\n")
        print("| transfer | engine | MB/s | vs curl | peak RSS MiB | at start MiB | above start MiB | target ≤ 64 MiB |")
        print("|---|---|---|---|---|---|---|---|")
        for kind in Transfers.Kind.allCases {
            var curlRate = Double.nan
            for engine in Transfers.engines(for: kind) {
                let result = try Transfers.measure(kind, engine: engine, setup: setup)
                if engine == "curl" { curlRate = result.megabytesPerSecond }
                let rss = Double(result.peakRSS) / 1_048_576
                let start = result.startRSS.map { Double($0) / 1_048_576 } ?? .nan
                let target = engine == "curl" ? "(baseline)" : engine == Transfers.floor ? "(floor)" : verdict(rss <= 64)
                print("| \(kind.title) | \(engine) | \(format(result.megabytesPerSecond, 0)) | \(format(result.megabytesPerSecond / curlRate, 2)) "
                    + "| \(format(rss, 1)) | \(format(start, 1)) | \(format(rss - start, 1)) | \(target) |")
            }
        }
        print("")
    }

    // MARK: Memory

    private func memoryGrowth() throws {
        print("## Memory over \(MemoryGrowth.measured) sequential requests (each engine in its own process)\n")
        print("GET + decode of the 458-byte record; resident memory sampled every \(MemoryGrowth.sampleEvery) requests "
            + "after \(MemoryGrowth.warmUp) requests of warm-up; growth is the least-squares slope.\n")
        print("| engine | RSS after warm-up KiB | RSS at the end KiB | growth KiB per 1,000 requests | req/s | target ≤ 64 KiB per 1,000 |")
        print("|---|---|---|---|---|---|")
        for engine in MemoryGrowth.engines where self.engine.map(engine.hasSuffix) ?? true {
            let result = try MemoryGrowth.measure(engine: engine, server: server, executable: CommandLine.arguments[0])
            print("| \(engine) | \(result.samples.first ?? 0) | \(result.samples.last ?? 0) | \(format(result.kibPerThousand, 1)) "
                + "| \(format(Double(MemoryGrowth.measured) / result.seconds, 0)) | \(verdict(result.kibPerThousand <= 64)) |")
        }
        print("")
    }

    /// Issue 25's target for DSL/raw on `engine`.
    private func target(_ engine: String) -> Double { engine == "AsyncHTTPClient" ? 0.95 : 0.97 }

    private func verdict(_ met: Bool) -> String { met ? "met" : "**missed**" }

    private func format(_ value: Double, _ decimals: Int) -> String {
        value.isFinite ? String(format: "%.\(decimals)f", value) : "–"
    }
}
