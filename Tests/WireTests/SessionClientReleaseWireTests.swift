import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A client made from a fresh `URLSession` is released with it: the transport made for that
/// session, the transport's own session and their connections go when the last client of that
/// session goes (issue 24, D6). The counts are the whole process's, read from `/proc` (Linux),
/// so `Scripts/test` runs this suite with the serial ones, while no other test opens sockets.
@Suite(.enabled(if: ProcessResources.areReadable))
struct SessionClientReleaseWireTests {
    /// Open descriptors the process may gain meanwhile on its own (a thread, a log).
    static let descriptorSlack = 10
    /// Resident memory the allocator may keep from the clients' churn.
    static let memorySlack = 4 << 20

    @Test(.timeLimit(.minutes(1)))
    func clientsOfFreshSessionsWithARequestEachGiveBackDescriptorsAndMemory() async throws {
        let url = try HttpBin.url()
        // One-time costs (libcurl, the idle ticker, the allocator's arenas) before counting.
        for _ in 0..<20 { try await Self.requestOnce(from: url) }
        let (descriptors, memory) = (try ProcessResources.openDescriptors(), try ProcessResources.residentBytes())
        for _ in 0..<300 { try await Self.requestOnce(from: url) }
        let descriptorsAfter = try await ProcessResources.settled(ProcessResources.openDescriptors) { $0 <= descriptors + Self.descriptorSlack }
        #expect(descriptorsAfter <= descriptors + Self.descriptorSlack, "\(descriptorsAfter - descriptors) descriptors more after 300 clients were dropped")
        let memoryAfter = try ProcessResources.residentBytes()
        #expect(memoryAfter <= memory + Self.memorySlack, "\((memoryAfter - memory) >> 10) KiB more resident after 300 clients were dropped")
    }

    @Test(.timeLimit(.minutes(1)))
    func tenThousandClientsMadeAndDroppedGiveBackDescriptorsAndMemory() async throws {
        let url = try HttpBin.url()
        for _ in 0..<1_000 { _ = ApiClient(urlSession: URLSession(configuration: .ephemeral), baseUrl: url) }
        let (descriptors, memory) = (try ProcessResources.openDescriptors(), try ProcessResources.residentBytes())
        // By thousands, each given back before the next: every session holds descriptors until
        // it is released, and 10,000 kept would pass the process's limit.
        for thousand in 1...10 {
            for _ in 0..<1_000 { _ = ApiClient(urlSession: URLSession(configuration: .ephemeral), baseUrl: url) }
            let after = try await ProcessResources.settled(ProcessResources.openDescriptors) { $0 <= descriptors + Self.descriptorSlack }
            guard after <= descriptors + Self.descriptorSlack else {
                Issue.record("\(after - descriptors) descriptors more after \(thousand * 1_000) clients were dropped")
                return
            }
        }
        let memoryAfter = try ProcessResources.residentBytes()
        #expect(memoryAfter <= memory + Self.memorySlack, "\((memoryAfter - memory) >> 10) KiB more resident after 10,000 clients were dropped")
    }

    /// Makes a client from a fresh session, sends one GET to httpbin, and drops both.
    static func requestOnce(from url: URL) async throws {
        let client = ApiClient(urlSession: URLSession(configuration: .ephemeral), baseUrl: url)
        let response: Response<Data> = try await client.get("get").perform()
        #expect(response.statusCode == 200)
    }
}

/// The process's open file descriptors and resident memory, from `/proc/self` (Linux).
enum ProcessResources {
    /// Whether this system has `/proc/self`.
    static let areReadable = FileManager.default.fileExists(atPath: "/proc/self/statm")

    /// How many file descriptors the process has open.
    static func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// The process's resident set, in bytes (the second field of `/proc/self/statm`, in pages).
    static func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = try #require(statm.split(separator: " ").dropFirst().first.flatMap { Int($0) })
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// `measure()` again every 50 ms until `isBack` holds or 10 s passed; its last value. A
    /// session whose tasks are done is invalidated on its own queue a moment after it is
    /// dropped, and nothing tells when that has happened.
    static func settled(_ measure: () throws -> Int, until isBack: (Int) -> Bool) async throws -> Int {
        let deadline = Date().addingTimeInterval(10)
        var value = try measure()
        while !isBack(value), Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
            value = try measure()
        }
        return value
    }
}
