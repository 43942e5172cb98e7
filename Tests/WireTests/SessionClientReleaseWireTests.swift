import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// A client made from a fresh `URLSession` is released with it: the transport made for that
/// session, the transport's own session and their connections go when the last client of that
/// session goes. The counts are the whole process's, read from `/proc` (Linux),
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

    @Test(.timeLimit(.minutes(1)))
    func aThousandTLSSettingsKeepAtMost64SessionsAndGiveThemBackWithTheTransport() async throws {
        var transport: URLSessionTransport? = URLSessionTransport(configuration: .ephemeral)
        let settings = (0..<1_064).map { TLSSettings(pins: ["api.example.com": [TLSServer.pin($0)]]) }
        // The first 64 fill the table: what is counted from there on is what the bound allows.
        for index in 0..<64 { transport?.session(for: settings[index]).release() }
        let (descriptors, memory) = (try ProcessResources.openDescriptors(), try ProcessResources.residentBytes())
        for index in 64..<1_064 {
            try #require(transport).session(for: settings[index]).release()
        }
        #expect(transport?.sessionsForSettings.count.kept == 64)
        let descriptorsAfter = try await ProcessResources.settled(ProcessResources.openDescriptors) { $0 <= descriptors + Self.descriptorSlack }
        #expect(descriptorsAfter <= descriptors + Self.descriptorSlack, "\(descriptorsAfter - descriptors) descriptors more after 1,000 more settings")
        let memoryAfter = try ProcessResources.residentBytes()
        #expect(memoryAfter <= memory + Self.memorySlack, "\((memoryAfter - memory) >> 10) KiB more resident after 1,000 more settings")
        // Dropped, the transport invalidates its own session and the 64 kept ones.
        let beforeTransport = descriptors
        transport = nil
        let released = try await ProcessResources.settled(ProcessResources.openDescriptors) { $0 < beforeTransport }
        #expect(released < beforeTransport, "the transport's sessions held \(released - beforeTransport + 1) or more descriptors after it was dropped")
    }

    /// Makes a client from a fresh session, sends one GET to httpbin, and drops both.
    static func requestOnce(from url: URL) async throws {
        let client = ApiClient(urlSession: URLSession(configuration: .ephemeral), baseUrl: url)
        let response: Response<Data> = try await client.get("get").perform()
        #expect(response.statusCode == 200)
    }
}
