import Foundation

// SwiftApiDslBenchmarks report --server URL --sink URL --www DIR --big FILE --scratch DIR
//     runs every benchmark and prints the tables (Scripts/bench starts the servers and calls it);
// SwiftApiDslBenchmarks transfer <kind> <engine> <server> <sink> <file> <scratch>
//     is one large transfer, run by `report` in a child process;
// SwiftApiDslBenchmarks memory <engine> <server>
//     is the memory-growth run of one engine, also a child of `report`.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "transfer":
        try await Transfers.runChild(Array(arguments.dropFirst()))
    case "memory":
        try await MemoryGrowth.runChild(Array(arguments.dropFirst()))
    case "report":
        try await Report(arguments: Array(arguments.dropFirst())).run()
    default:
        print("usage: SwiftApiDslBenchmarks report --server URL --sink URL --www DIR --big FILE --scratch DIR [--rounds N] [--duration S] [--only roundtrips,dsl,transfers,memory]")
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("SwiftApiDslBenchmarks: \(error)\n".utf8))
    exit(1)
}
