import Foundation

// SwiftApiDslBenchmarks report --server URL --sink URL --www DIR --big FILE --scratch DIR
//     runs every benchmark and prints the tables (Scripts/bench starts the servers and calls it);
// SwiftApiDslBenchmarks transfer <kind> <engine> <server> <sink> <file> <scratch>
//     is one large transfer, run by `report` in a child process;
// SwiftApiDslBenchmarks memory <engine> <server>
//     is the memory-growth run of one engine, also a child of `report`;
// SwiftApiDslBenchmarks cache-hit [--rounds N] [--duration S]
//     compares an HTTPCache hit with a mocked request (no server needed).
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "transfer":
        try await Transfers.runChild(Array(arguments.dropFirst()))
    case "memory":
        try await MemoryGrowth.runChild(Array(arguments.dropFirst()))
    case "cache-hit":
        try await MockedRequest.compareCacheHit(Array(arguments.dropFirst()))
    case "report":
        try await Report(arguments: Array(arguments.dropFirst())).run()
    default:
        print("usage: SwiftApiDslBenchmarks report --server URL --sink URL --www DIR --big FILE --scratch DIR [--rounds N] [--duration S] [--only roundtrips,dsl,transfers,memory] | cache-hit [--rounds N] [--duration S]")
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("SwiftApiDslBenchmarks: \(error)\n".utf8))
    exit(1)
}
