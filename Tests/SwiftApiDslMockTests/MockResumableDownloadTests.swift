import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Downloads continue on a mock as on the wire: the mock answers `Range` as a server would
/// (its result provider below), and a middleware cuts bodies as a lost connection would.
@Suite struct MockResumableDownloadTests {
    let folder: URL
    let destination: URL
    /// The file the mock serves: byte i is i % 251.
    let file = Data((0..<1000).map { UInt8($0 % 251) })

    init() throws {
        folder = try Fixtures.temporaryFolder()
        destination = folder.appendingPathComponent("file.bin")
    }

    /// A mock serving `file` with `ETag: "v1"`, honouring `Range: bytes=N-` when `If-Range` is
    /// `"v1"`; its first `cuts` bodies fail after `after` bytes.
    private func mock(cuts: Int, after: Int = 300, observer: (@Sendable (RequestEvent) -> Void)? = nil,
                      policy: RetryPolicy = RetryPolicy(maxAttempts: 4, initialDelay: 0, jitter: 0)) -> ApiClientMock {
        let cut = Locked(0)
        var client = ApiClient(baseUrl: Fixtures.baseUrl).retryPolicy(policy).middleware(Middleware("cut") { request, next in
            var response = try await next(request)
            if cut.withLock({ $0 += 1; return $0 }) <= cuts { response.body = ResponseBody(FailingBody(base: response.body, after: after)) }
            return response
        })
        if let observer { client = client.observer(observer) }
        let mock = client.mocked()
        let file = self.file
        mock.resultProvider = { request in
            let range = request.value(forHTTPHeaderField: "Range")
            let start = range.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) }
            guard let start, request.value(forHTTPHeaderField: "If-Range") == "\"v1\"" else {
                return .response(request, body: file, headers: ["ETag": "\"v1\"", "Content-Length": "1000"])
            }
            return .response(request, body: file[start...], statusCode: 206,
                             headers: ["ETag": "\"v1\"", "Content-Range": "bytes \(start)-999/1000", "Content-Length": "\(1000 - start)"])
        }
        return mock
    }

    private var ranges: (ApiClientMock) -> [String] {
        { mock in mock.recordedRequests.map { "\($0.header("Range") ?? "-") \($0.header("If-Range") ?? "-")" } }
    }

    @Test func aCutDownloadIsContinuedWithRangeInTheSameCall() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mock = mock(cuts: 2)
        let response = try await mock.get("file").download(destination: destination)
        // The file's head, not the last range's: 200, the whole length, the validator, no range.
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Length") == "\(file.count)")
        #expect(response.value(forHTTPHeaderField: "Content-Range") == nil)
        #expect(response.value(forHTTPHeaderField: "ETag") == "\"v1\"")
        #expect(try Data(contentsOf: destination) == file)
        #expect(ranges(mock) == ["- -", "bytes=300- \"v1\"", "bytes=600- \"v1\""])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file.bin"])
    }

    /// Continuing is retrying: without a policy a cut fails at once; with one, each continuation
    /// waits as the policy says and counts as one of its attempts.
    @Test func aCutIsContinuedAsTheCallsRetryPolicySays() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let never = mock(cuts: 1, policy: .never)
        let error = await #expect(throws: RequestError.self) { try await never.get("file").download(destination: destination) }
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(never.recordedRequests.count == 1)
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        let twice = mock(cuts: 5, policy: RetryPolicy(maxAttempts: 2, initialDelay: 0.05, jitter: 0))
        let started = Date()
        let failed = await #expect(throws: RequestError.self) { try await twice.get("file").download(destination: destination) }
        #expect(failed?.attempts == 2)
        #expect(twice.recordedRequests.count == 2)
        #expect(Date().timeIntervalSince(started) >= 0.05)
    }

    /// The mock's endpoint download takes `resumable:` as the client's does.
    @Test func anEndpointDownloadOnTheMockIsResumableToo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Endpoint<Data>(.get, "file")
        let first = mock(cuts: 1, policy: .never)
        await #expect(throws: RequestError.self) { try await first.download(file, destination: destination, resumable: true) }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".file.bin.partial").path))
        let second = mock(cuts: 0)
        try await second.download(file, destination: destination, resumable: true)
        #expect(try Data(contentsOf: destination) == self.file)
        #expect(ranges(second) == ["bytes=300- \"v1\""])
    }

    @Test func aResumableDownloadIsContinuedByALaterCallWithProgressFromTheBytesOnDisk() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = mock(cuts: 4, after: 200)
        let request = first.get("file").queryItem(name: "token", "s3cr3t")
        await #expect(throws: RequestError.self) { try await request.download(destination: destination, resumable: true) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".file.bin.partial", ".file.bin.partial.json"])
        let state = try String(contentsOf: folder.appendingPathComponent(".file.bin.partial.json"), encoding: .utf8)
        #expect(!state.contains("s3cr3t"))
        #expect(state.contains(#""validator":"\"v1\"""#))

        let second = mock(cuts: 0)
        let progress = Locked<[TransferProgress]>([])
        try await second.get("file").queryItem(name: "token", "s3cr3t").downloadProgress { update in progress.withLock { $0.append(update) } }
            .download(destination: destination, resumable: true)
        #expect(try Data(contentsOf: destination) == file)
        #expect(ranges(second) == ["bytes=800- \"v1\""])
        #expect(progress.withLock { $0.first } == TransferProgress(completedBytes: 800, totalBytes: 1000))
        #expect(progress.withLock { $0.last } == TransferProgress(completedBytes: 1000, totalBytes: 1000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file.bin"])
    }

    @Test func observersHearEachContinuationAsARetry() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = RetryLog()
        try await mock(cuts: 1, observer: log.observe).get("file").download(destination: destination)
        #expect(log.attempts.withLock { $0 } == [2])
    }

    /// A download and a retried request wait in the same loop: cancelled while it waits to
    /// continue, a download ends at once as a cancellation that says how many attempts it made.
    @Test(.timeLimit(.minutes(1)))
    func aDownloadCancelledWhileWaitingToContinueSaysHowManyAttemptsItMade() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (retries, retry) = AsyncStream<Int>.makeStream()
        // The first wait is 10 ms, the second an hour: the call is cancelled in that one.
        let mock = mock(cuts: 5, observer: { event in
            if case .retrying(let attempt, _, _) = event.kind { retry.yield(attempt) }
        }, policy: RetryPolicy(maxAttempts: 4, initialDelay: 0.01, multiplier: 360_000, maxDelay: 3600, jitter: 0))
        let task = Task { [destination] in try await mock.get("file").download(destination: destination) }
        for await attempt in retries where attempt == 3 { break }
        task.cancel()
        let error = await #expect(throws: RequestError.self) { try await task.value }
        #expect(error?.isCancellation == true)
        #expect(error?.attempts == 2)
        #expect(mock.recordedRequests.count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingAResumableDownloadKeepsItsBytesForLater() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        let file = self.file
        mock.resultProvider = { .response($0, body: file, headers: ["ETag": "\"v1\"", "Content-Length": "1000"]) }
        let client = mock.client.middleware(Middleware("stall") { request, next in
            var response = try await next(request)
            response.body = ResponseBody(FailingBody(base: response.body, after: 400, stalling: true))
            return response
        })
        let (written, bytesWritten) = AsyncStream<Void>.makeStream()
        let task = Task { [destination] in
            try await client.get("file").downloadProgress { _ in bytesWritten.yield() }
                .download(destination: destination, resumable: true)
        }
        for await _ in written { break }
        task.cancel()
        let result = await task.result
        #expect(throws: RequestError.self) { try result.get() }
        #expect(try Data(contentsOf: folder.appendingPathComponent(".file.bin.partial")) == file.prefix(400))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".file.bin.partial", ".file.bin.partial.json"])
    }
}

/// Counts the retries observers hear of.
private final class RetryLog: Sendable {
    let attempts = Locked<[Int]>([])
    func observe(_ event: RequestEvent) {
        if case .retrying(let attempt, _, _) = event.kind { attempts.withLock { $0.append(attempt) } }
    }
}

/// A body that fails as a lost connection after `after` bytes, or waits there until cancelled.
private struct FailingBody: AsyncSequence, Sendable {
    typealias Element = Data
    let base: ResponseBody
    let after: Int
    var stalling = false

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), remaining: after, stalling: stalling) }

    struct Iterator: AsyncIteratorProtocol {
        var base: ResponseBody.Iterator
        var remaining: Int
        let stalling: Bool

        mutating func next() async throws -> Data? {
            guard remaining > 0 else {
                if stalling { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
                throw URLError(.networkConnectionLost)
            }
            guard let chunk = try await base.next() else { return nil }
            let kept = chunk.prefix(remaining)
            remaining -= kept.count
            return kept
        }
    }
}
