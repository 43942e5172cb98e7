import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// The seam an engine that cannot pause takes, as a user's transport would: it reports a backlog
/// with `ExchangeControl.readerFellBehind()`, and a download that can be continued ends the
/// exchange, writes what was queued and goes on with `Range`.
@Suite struct DownloadPacingTests {
    /// Serves `file` with a strong entity tag and `Accept-Ranges: bytes` (unless `acceptsRanges`
    /// is `false`), answering `Range` with `If-Range` unless `ignoresRanges`, from a thread of its
    /// own that pushes 16 KiB chunks into a queue of 64 KiB as fast as it can, once the reader
    /// waits for the first one, and reports a backlog as URLSession's transport does.
    final class FileEngine: HTTPTransport {
        let file: Data
        let ignoresRanges: Bool
        let acceptsRanges: Bool
        /// The `Range` of each request (`-` for none).
        let ranges = Locked<[String]>([])
        /// Signalled when the first request's pushing has stopped.
        let firstPushingOver = DispatchSemaphore(value: 0)

        init(file: Data, ignoresRanges: Bool = false, acceptsRanges: Bool = true) {
            self.file = file
            self.ignoresRanges = ignoresRanges
            self.acceptsRanges = acceptsRanges
        }

        func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
            let range = request.headerFields["Range"]
            let attempt = ranges.withLock { ranges in
                ranges.append(range ?? "-")
                return ranges.count
            }
            var start = 0
            if !ignoresRanges, request.headerFields["If-Range"] == "\"v1\"", let range, range.hasPrefix("bytes="), range.hasSuffix("-") {
                start = Int(range.dropFirst("bytes=".count).dropLast()) ?? 0
            }
            let body = file.subdata(in: start..<file.count)
            let queue = ResponseChunkQueue(bufferLimit: 64 << 10)
            control.onAbort { queue.finish(throwing: $0) }
            // A thread of its own: on Linux, dispatch's global queues share their few threads
            // with the tasks, and a reader held below would starve the pusher it waits for.
            Thread { [firstPushingOver] in
                while !queue.isReaderWaiting, !control.isAborted { usleep(1000) }
                var offset = 0
                while offset < body.count, !control.isAborted {
                    let chunk = body.subdata(in: offset..<min(offset + (16 << 10), body.count))
                    offset += chunk.count
                    if !queue.push(chunk) { control.readerFellBehind() }
                }
                if !control.isAborted { queue.finish() }
                if attempt == 1 { firstPushingOver.signal() }
            }.start()
            var fields: HeaderFields = ["ETag": "\"v1\"", "Content-Length": "\(body.count)"]
            if acceptsRanges { fields.set("bytes", for: "Accept-Ranges") }
            guard start > 0 else { return TransportResponse(statusCode: 200, headerFields: fields, body: queue.body) }
            fields.set("bytes \(start)-\(file.count - 1)/\(file.count)", for: "Content-Range")
            return TransportResponse(statusCode: 206, headerFields: fields, body: queue.body)
        }
    }

    static let file = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    /// Downloads through `engine` with a reader held at its first chunk until the engine's
    /// first pushing is over: a reader that fell behind. Returns the file written.
    private func download(through engine: FileEngine) async throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pacing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        let held = Locked(false)
        try await ApiClient(transport: engine, baseUrl: try #require(URL(string: "https://files.example")))
            .get("file.bin")
            .downloadProgress { _ in
                let wasHeld = held.withLock { isHeld in
                    defer { isHeld = true }
                    return isHeld
                }
                guard !wasHeld else { return }
                engine.firstPushingOver.wait()
            }
            .download(destination: destination)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file.bin"])
        return try Data(contentsOf: destination)
    }

    @Test(.timeLimit(.minutes(1))) func aReaderThatFellBehindEndsTheExchangeAndTheFileGoesOnWithRange() async throws {
        let engine = FileEngine(file: Self.file)
        #expect(try await download(through: engine).isSame(as: Self.file))
        let ranges = engine.ranges.withLock { $0 }
        #expect(ranges.first == "-")
        #expect(ranges.count >= 2, "\(ranges)")
        // Every byte queued before the pause was written: the first range starts past the queue's limit.
        let starts = ranges.dropFirst().compactMap { Int($0.dropFirst("bytes=".count).dropLast()) }
        #expect(starts.count == ranges.count - 1, "\(ranges)")
        #expect((starts.first ?? 0) >= 64 << 10, "\(ranges)")
        #expect(starts == starts.sorted() && Set(starts).count == starts.count, "\(ranges)")
    }

    @Test(.timeLimit(.minutes(1))) func aServerThatAnswersTheRangeWithTheWholeFileIsNotPausedAgain() async throws {
        let engine = FileEngine(file: Self.file, ignoresRanges: true)
        #expect(try await download(through: engine).isSame(as: Self.file))
        let ranges = engine.ranges.withLock { $0 }
        #expect(ranges.count == 2, "\(ranges)")
        #expect(ranges.first == "-")
    }

    @Test(.timeLimit(.minutes(1))) func aServerThatDoesNotSayItServesRangesIsNotPaused() async throws {
        let engine = FileEngine(file: Self.file, acceptsRanges: false)
        #expect(try await download(through: engine).isSame(as: Self.file))
        #expect(engine.ranges.withLock { $0 } == ["-"])
    }

    @Test func aBacklogEndsTheExchangeOnlyWhenItsReaderAskedForIt() {
        let control = ExchangeControl()
        let aborted = Locked<[ApiClientError.Code]>([])
        control.onAbort { reason in aborted.withLock { $0.append((reason as? ApiClientError)?.code ?? .invalidURL) } }
        control.readerFellBehind()
        #expect(!control.isAborted)
        control.endWhenReaderFallsBehind()
        #expect(control.isAborted, "a backlog reported before the reader asked counts")
        control.readerFellBehind()
        #expect(aborted.withLock { $0 } == [.readerFellBehind])
    }

    /// A `stream()` that did not ask to end when its reader falls behind is queued whole (one
    /// that asked: `DownloadPacingWireTests`).
    @Test(.timeLimit(.minutes(1))) func aStreamNotAskedToEndIsReadWhole() async throws {
        let engine = FileEngine(file: Self.file)
        let response = try await ApiClient(transport: engine, baseUrl: try #require(URL(string: "https://files.example"))).get("file.bin").stream()
        var iterator = response.body.makeAsyncIterator()
        var received = try #require(try await iterator.next())
        engine.firstPushingOver.wait()
        while let chunk = try await iterator.next() { received.append(chunk) }
        #expect(received.isSame(as: Self.file))
        #expect(engine.ranges.withLock { $0 } == ["-"])
    }
}
