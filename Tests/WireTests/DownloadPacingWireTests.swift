import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

#if canImport(FoundationNetworking)
/// On Linux the URLSession transport paces a download's body by holding libcurl's write
/// callback while the download's queue is full (`URLSessionExchange.receive(_:)`), and never
/// paces a stream, which its caller reads when it likes.
@Suite struct DownloadPacingWireTests {
    static let size = 24 << 20
    static let limit = URLSessionExchange.downloadBufferLimit

    /// A fresh file of ``size`` bytes served by nginx; its path.
    static func servedFile() throws -> String {
        let name = "pacing/\(UUID().uuidString).bin"
        try Nginx.write(Data(repeating: 7, count: size), as: name)
        return name
    }

    /// Reads an exchange made by a session of its own, 5 ms per MiB (a slow disk), and
    /// returns the most bytes the exchange held queued and the bytes read.
    static func readSlowly(isDownload: Bool) async throws -> (mostQueued: Int, read: Int) {
        let url = try Nginx.url("/" + servedFile())
        let delegate = URLSessionTransportDelegate()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: InlineDelegateQueue())
        defer { session.finishTasksAndInvalidate() }
        let request = URLRequest(url: url)
        let exchange = URLSessionExchange(request: request, control: ExchangeControl(), temporaryFile: nil, isDownload: isDownload)
        let response = try await delegate.run(session.dataTask(with: request), exchange: exchange)
        var read = 0
        var mostQueued = 0
        for try await chunk in response.body {
            mostQueued = max(mostQueued, exchange.queuedBytes)
            read += chunk.count
            if read % (1 << 20) < chunk.count { try await Task.sleep(nanoseconds: 5_000_000) }
        }
        return (mostQueued, read)
    }

    @Test func aDownloadsQueueStaysUnderItsLimitWhileItsWriterIsSlow() async throws {
        let (mostQueued, read) = try await Self.readSlowly(isDownload: true)
        #expect(read == Self.size)
        // Full (the reader was slower than loopback) but never above the limit and one chunk.
        #expect(mostQueued >= Self.limit / 2)
        #expect(mostQueued <= Self.limit + (64 << 10))
    }

    @Test func aStreamsQueueIsNotLimited() async throws {
        let (mostQueued, read) = try await Self.readSlowly(isDownload: false)
        #expect(read == Self.size)
        #expect(mostQueued > Self.limit + (64 << 10))
    }

    /// A stream nobody reads holds nothing up: the same client's requests and downloads go on.
    @Test func aStreamNobodyReadsBlocksNeitherARequestNorADownloadOnTheSameClient() async throws {
        let name = try Self.servedFile()
        let client = ApiClient(transport: URLSessionTransport(), baseUrl: try Nginx.url())
        let stream = try await client.get(name).stream()
        // The stream's body arrives meanwhile, far past the limit a download would have.
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
#endif
