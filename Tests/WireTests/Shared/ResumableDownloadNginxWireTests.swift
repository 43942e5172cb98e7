#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Downloads continued against nginx's own `Range`, `206` and `If-Range`. nginx never cuts a
/// body, so a middleware does it here: it fails a response's body after some bytes, as a lost
/// connection would.
@Suite struct ResumableDownloadNginxWireTests {
    /// A client whose first `cutResponses` responses fail after `cutAfter` bytes of body, and
    /// which records each exchange as `"<status> <Range or -> <If-Range or ->"` in `seen`.
    private func client(cutting cutResponses: Int, after cutAfter: Int, seen: Trail) throws -> ApiClient {
        let cuts = Counter()
        return try Nginx.client().httpStatusCodeRange().retryPolicy(.continuingAtOnce)
            .middleware(Middleware("record") { request, next in
                let response = try await next(request)
                seen.add("\(response.statusCode) \(request.headerFields["Range"] ?? "-") \(request.headerFields["If-Range"] ?? "-")")
                return response
            })
            .middleware(Middleware("cut") { request, next in
                var response = try await next(request)
                if cuts.next() <= cutResponses { response.body = ResponseBody(CutBody(base: response.body, limit: cutAfter)) }
                return response
            })
    }

    @Test func aCutDownloadOfTheBlobIsContinuedWithTheEntityTag() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let etag = try #require(try await Nginx.client().head("blob.bin").perform().headerFields["ETag"])
        let seen = Trail()
        try await client(cutting: 1, after: 300_000, seen: seen).get("blob.bin")
            .download(destination: folder.appendingPathComponent("blob.bin"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("blob.bin")).isSame(as: Nginx.blob()))
        #expect(seen.all == ["200 - -", "206 bytes=300000- \(etag)"])
    }

    @Test func aResumableDownloadContinuesInASecondCallWithProgressFromTheBytesOnDisk() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("blob.bin")
        let seen = Trail()
        await #expect(throws: RequestError.self) {
            try await client(cutting: 4, after: 100_000, seen: seen).get("blob.bin").download(destination: destination, resumable: true)
        }
        #expect(seen.all.count == 4)
        #expect(try Data(contentsOf: folder.appendingPathComponent(".blob.bin.partial")).isSame(as: Nginx.blob(0..<400_000)))

        let progress = Trail()
        let second = Trail()
        let response = try await client(cutting: 0, after: 0, seen: second).get("blob.bin")
            .downloadProgress { progress.add("\($0.completedBytes)/\($0.totalBytes ?? -1)") }
            .download(destination: destination, resumable: true)
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Length") == "1048576")
        #expect(response.value(forHTTPHeaderField: "Content-Range") == nil)
        #expect(response.value(forHTTPHeaderField: "ETag")?.hasPrefix("\"") == true)
        #expect(try Data(contentsOf: destination).isSame(as: Nginx.blob()))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["blob.bin"])
        #expect(progress.all.first == "400000/1048576")
        #expect(progress.all.last == "1048576/1048576")
        #expect(second.all.count == 1)
        #expect(second.all.first?.hasPrefix("206 bytes=400000- ") == true)
    }

    @Test func aFileChangedBetweenTwoCallsIsDownloadedAgainWhole() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "transfers-\(UUID().uuidString).bin"
        let first = Data((0..<600_000).map { UInt8($0 % 199) })
        let changed = Data((0..<500_000).map { UInt8($0 % 97) })
        try Nginx.write(first, as: name)
        let served = try Nginx.root().appendingPathComponent(name)
        defer { try? FileManager.default.removeItem(at: served) }
        let destination = folder.appendingPathComponent("file.bin")
        let seen = Trail()
        await #expect(throws: RequestError.self) {
            try await client(cutting: 4, after: 50_000, seen: seen).get(name).download(destination: destination, resumable: true)
        }
        let etag = try #require(try await Nginx.client().head(name).perform().headerFields["ETag"])
        try Nginx.write(changed, as: name)

        let second = Trail()
        let response = try await client(cutting: 0, after: 0, seen: second).get(name).download(destination: destination, resumable: true)
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: destination).isSame(as: changed))
        #expect(second.all == ["200 bytes=200000- \(etag)"])
    }
}

/// Counts calls from any task.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int { lock.lock(); defer { lock.unlock() }; count += 1; return count }
}

/// A body that fails after `limit` bytes, as a lost connection would.
private struct CutBody: AsyncSequence, Sendable {
    typealias Element = Data
    let base: ResponseBody
    let limit: Int

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), remaining: limit) }

    struct Iterator: AsyncIteratorProtocol {
        var base: ResponseBody.Iterator
        var remaining: Int

        mutating func next() async throws -> Data? {
            guard remaining > 0 else { throw URLError(.networkConnectionLost) }
            guard let chunk = try await base.next() else { return nil }
            let kept = chunk.prefix(remaining)
            remaining -= kept.count
            return kept
        }
    }
}
#endif
