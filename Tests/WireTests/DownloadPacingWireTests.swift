import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// URLSession cannot slow down (Docs/LinuxNotes.md): a download whose reader falls 16 MiB behind
/// is ended and continued with `Range` from the bytes written, when its server serves ranges;
/// otherwise its body is queued whole. Against the test server's `/transfers/file/<key>`.
/// One test at a time: each holds a thread of the pool while its server writes.
@Suite(.serialized) struct DownloadPacingWireTests {
    static let size = 48 << 20
    static let backlogLimit = 16 << 20

    /// The server's file of `size` bytes at version 1: byte i is i % 251.
    static func file(_ size: Int) -> Data {
        let period = Data((0..<251).map { UInt8($0) })
        var data = Data(capacity: size + period.count)
        while data.count < size { data.append(period) }
        return data.prefix(size)
    }

    /// Downloads `file/<key>?<query>` of `size` bytes with a reader that falls behind: the server
    /// holds all but the first 64 KiB until the reader has them (the download knows then whether
    /// it can be continued), and the reader's first progress update holds it until the server
    /// has written the rest or seen the client go away. Returns the file written.
    private func download(_ key: String, _ query: [String: String] = [:]) async throws -> Data {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        let first = StreamedBodyWireTests.Shared(1)
        let gate = try TestServer.url("/transfers/open/\(key)")
        try await TestServer.client("/transfers/").get("file/\(key)").queryItems(query.merging(["size": "\(Self.size)", "gate": "1"]) { given, _ in given })
            .downloadProgress { _ in if first.take() { Self.postWaitingOnThisThread(gate) } }
            .download(destination: destination)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file.bin"])
        return try Data(contentsOf: destination)
    }

    /// POSTs to `url` on loopback and waits for the whole answer on the calling thread, through
    /// a socket of its own: the pool of tasks, of which the caller holds a thread, plays no part.
    static func postWaitingOnThisThread(_ url: URL) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(url.port ?? 80).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        let request = Array("POST \(url.path) HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &buffer, buffer.count, 0) > 0 {}
    }

    @Test func aReaderThatFallsBehindIsPausedAndTheFileContinuedWithRange() async throws {
        let key = UUID().uuidString
        #expect(try await download(key).isSame(as: Self.file(Self.size)))
        let seen = try await ResumableDownloadWireTests().seen(key)
        #expect(seen.first == "200 - -")
        #expect(seen.count >= 2, "\(seen)")
        // Each pause came after a backlog of the whole limit, all of it written before going on;
        // nothing was queued after the first (the reader held, all else arrived then): its range
        // starts past the limit by less than the 64 KiB sent first and a chunk.
        var written = 0
        for request in seen.dropFirst() {
            let prefix = "206 bytes=", suffix = "- \"\(key)-v1\""
            guard request.hasPrefix(prefix), request.hasSuffix(suffix),
                  let start = Int(request.dropFirst(prefix.count).dropLast(suffix.count))
            else {
                Issue.record("unexpected request \(request)")
                return
            }
            #expect(start - written >= Self.backlogLimit, "\(seen)")
            if written == 0 { #expect(start < Self.backlogLimit + (1 << 20), "\(seen)") }
            written = start
        }
    }

    /// A caller of `stream()` takes the same seam: asked to, its body ends after the bytes queued
    /// when the reader falls behind, and the caller goes on with `Range` and `If-Range`. Through
    /// the client's error mapping and an observer, which both wrap the body.
    @Test func aStreamAskedToEndWhenItsReaderFallsBehindGoesOnWithRange() async throws {
        let key = UUID().uuidString
        let recorder = ObserverWireTests.Recorder()
        let client = try TestServer.client("/transfers/").mapError { $0 }.observer(recorder.observe)
        let response = try await client.get("file/\(key)").queryItems(["size": "\(Self.size)", "gate": "1"]).stream()
        let etag = try #require(response.headerFields["ETag"])
        #expect(response.headerFields["Accept-Ranges"] == "bytes")
        response.body.endWhenReaderFallsBehind()
        var iterator = response.body.makeAsyncIterator()
        var received = try #require(try await iterator.next())
        Self.postWaitingOnThisThread(try TestServer.url("/transfers/open/\(key)"))
        var failure: ApiClientError?
        do {
            while let chunk = try await iterator.next() { received.append(chunk) }
        } catch RequestError.transport(_, let error as ApiClientError) {
            failure = error
        }
        #expect(failure?.code == .readerFellBehind)
        #expect(received.count >= Self.backlogLimit && received.count < Self.size, "\(received.count)")
        let metrics = try #require(recorder.metrics)
        #expect(metrics.bytesReceived == Int64(received.count))
        #expect((metrics.error?.underlyingError as? ApiClientError)?.code == .readerFellBehind)
        let first = received.count
        let rest = try await client.get("file/\(key)").queryItems(["size": "\(Self.size)"])
            .header("Range", "bytes=\(first)-").header("If-Range", etag).stream()
        #expect(rest.statusCode == 206)
        for try await chunk in rest.body { received.append(chunk) }
        #expect(received.isSame(as: Self.file(Self.size)))
        #expect(try await ResumableDownloadWireTests().seen(key) == ["200 - -", "206 bytes=\(first)- \(etag)"])
    }

    /// A server that answers a `Range` with the whole file is not paced again: the download
    /// would start over for ever.
    @Test func aServerThatIgnoresTheRangeIsPausedOnce() async throws {
        let key = UUID().uuidString
        #expect(try await download(key, ["range": "ignore"]).isSame(as: Self.file(Self.size)))
        let seen = try await ResumableDownloadWireTests().seen(key)
        #expect(seen.count == 2, "\(seen)")
        #expect(seen.first == "200 - -")
        #expect(seen.last?.hasPrefix("200 bytes=") == true, "\(seen)")
    }

    /// A server that does not say it serves byte ranges is not asked for one: the body is queued whole.
    @Test func aServerThatDoesNotSayItServesRangesIsNotPaused() async throws {
        let key = UUID().uuidString
        #expect(try await download(key, ["accept-ranges": "none"]).isSame(as: Self.file(Self.size)))
        #expect(try await ResumableDownloadWireTests().seen(key) == ["200 - -"])
    }

    /// Without a validator for `If-Range` the body cannot be continued: it is queued whole.
    @Test func aFileWithoutValidatorIsNotPaused() async throws {
        let key = UUID().uuidString
        #expect(try await download(key, ["validator": "none"]).isSame(as: Self.file(Self.size)))
        #expect(try await ResumableDownloadWireTests().seen(key) == ["200 - -"])
    }
}
