import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A `stream()` is paced by its caller alone. URLSession reads all of a session's sockets on one
/// queue, so whatever might one day slow a download there (Benchmarks/NOTES.md, "URLSession's
/// download has no back-pressure on Linux") must never hold that queue for a stream nobody reads.
@Suite struct StreamPacingWireTests {
    static let size = 24 << 20

    /// A stream nobody reads holds nothing up: the same client's requests and downloads go on.
    @Test func aStreamNobodyReadsBlocksNeitherARequestNorADownloadOnTheSameClient() async throws {
        let name = "pacing/\(UUID().uuidString).bin"
        try Nginx.write(Data(repeating: 7, count: Self.size), as: name)
        let client = try Nginx.client()
        let stream = try await client.get(name).stream()
        // The stream's body arrives meanwhile, far past what a download would hold.
        try await Task.sleep(nanoseconds: 300_000_000)
        let small = try await client.get("doc.json").timeoutInterval(5).perform()
        #expect(small.statusCode == 200)
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("pacing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        try await client.get(name).timeoutInterval(10).download(destination: destination)
        #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int == Self.size)
        var read = 0
        for try await chunk in stream.body { read += chunk.count }
        #expect(read == Self.size)
    }
}
