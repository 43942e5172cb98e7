#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A download cut short goes on from the bytes on disk with `Range` and `If-Range`, in the same
/// call or, when resumable, in a later one; against the test server's `/transfers/file/<key>`,
/// whose connections are really cut (Scripts/testserver/routes_transfers.py).
extension RetryPolicy {
    /// Continues a cut body at once, up to three times, and retries no status: the rule the
    /// download tests pin.
    static let continuingAtOnce = RetryPolicy(maxAttempts: 4, initialDelay: 0, jitter: 0, retryableStatusCodes: [])
}

@Suite struct ResumableDownloadWireTests {
    /// What the server saw of each request of `key`: `"<status> <Range or -> <If-Range or ->"`.
    func seen(_ key: String) async throws -> [String] {
        struct Stats: Decodable {
            struct Request: Decodable { var range: String?; var ifRange: String?; var status: Int }
            var requests: [Request]
        }
        let stats: Stats = try await TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).get("stats/\(key)").perform()
        return stats.requests.map { "\($0.status) \($0.range ?? "-") \($0.ifRange ?? "-")" }
    }

    /// The server's file of `size` bytes at version `version`.
    private func file(_ size: Int = 100_000, version: Int = 1) -> Data {
        Data((0..<size).map { UInt8(($0 + version - 1) % 251) })
    }

    /// The error a download of `file/<key>?<query>` into `folder/file.bin` fails with.
    private func failure(of key: String, _ query: [String: String], into folder: URL, resumable: Bool = false) async -> RequestError? {
        await #expect(throws: RequestError.self) {
            try await TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).get("file/\(key)").queryItems(query)
                .download(destination: folder.appendingPathComponent("file.bin"), resumable: resumable)
        }
    }

    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aBodyCutHalfWayIsContinuedWithRangeInTheSameCall() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let destination = folder.appendingPathComponent("file.bin")
        let response = try await TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).httpStatusCodeRange()
            .get("file/\(key)").queryItems(["cut": "30000"])
            .download(destination: destination)
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Length") == "\(file().count)")
        #expect(response.value(forHTTPHeaderField: "Content-Range") == nil)
        #expect(response.value(forHTTPHeaderField: "ETag") == "\"\(key)-v1\"")
        #expect(try Data(contentsOf: destination).isSame(as: file()))
        #expect(try names(in: folder) == ["file.bin"])
        #expect(try await seen(key) == ["200 - -", "206 bytes=30000- \"\(key)-v1\""])
    }

    @Test func aLastModifiedDateIsTheValidatorWhenThereIsNoEntityTag() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        try await TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).get("file/\(key)").queryItems(["cut": "1000", "validator": "last-modified"])
            .download(destination: folder.appendingPathComponent("file.bin"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("file.bin")).isSame(as: file()))
        #expect(try await seen(key) == ["200 - -", "206 bytes=1000- Wed, 21 Oct 2026 07:28:00 GMT"])
    }

    /// A weak entity tag can be sent neither as it is nor replaced by the date (RFC 9110 §13.1.5).
    @Test func aWeakEntityTagIsNotContinued() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let error = await failure(of: key, ["cut": "1000", "validator": "weak"], into: folder)
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(try await seen(key) == ["200 - -"])
    }

    @Test func withoutAValidatorACutIsNotContinued() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let error = await failure(of: key, ["cut": "1000", "validator": "none"], into: folder, resumable: true)
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(try names(in: folder) == [])
        #expect(try await seen(key) == ["200 - -"])
    }

    @Test func aCallContinuesThreeTimesThenFailsLeavingNothing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let error = await failure(of: key, ["cut": "20000", "cuts": "4"], into: folder)
        #expect(error?.stage == "transport")
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(try names(in: folder) == [])
        let etag = "\"\(key)-v1\""
        #expect(try await seen(key) == ["200 - -", "206 bytes=20000- \(etag)", "206 bytes=40000- \(etag)", "206 bytes=60000- \(etag)"])
    }

    @Test func aResumableDownloadIsContinuedByASecondCallFromTheBytesOnDisk() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let destination = folder.appendingPathComponent("file.bin")
        let request = try TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).httpStatusCodeRange()
            .get("file/\(key)").queryItems(["cut": "20000", "cuts": "4"])
        await #expect(throws: RequestError.self) { try await request.download(destination: destination, resumable: true) }
        #expect(try names(in: folder) == [".file.bin.partial", ".file.bin.partial.json"])
        #expect(try Data(contentsOf: folder.appendingPathComponent(".file.bin.partial")).isSame(as: file().prefix(80_000)))

        // A new client, as a new process would make: the state is on disk.
        let progress = Trail()
        try await TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).get("file/\(key)").queryItems(["cut": "20000", "cuts": "4"])
            .downloadProgress { progress.add("\($0.completedBytes)/\($0.totalBytes ?? -1)") }
            .download(destination: destination, resumable: true)
        #expect(try Data(contentsOf: destination).isSame(as: file()))
        #expect(try names(in: folder) == ["file.bin"])
        #expect(progress.all.first == "80000/100000")
        #expect(progress.all.last == "100000/100000")
        #expect(try await seen(key).last == "206 bytes=80000- \"\(key)-v1\"")
    }

    @Test func aFileChangedOnTheServerStartsAgainFromItsFirstByte() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let destination = folder.appendingPathComponent("file.bin")
        let request = try TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).get("file/\(key)").queryItems(["cut": "20000", "cuts": "4"])
        await #expect(throws: RequestError.self) { try await request.download(destination: destination, resumable: true) }
        try await TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).post("change/\(key)").perform()

        let progress = Trail()
        let response = try await request.downloadProgress { progress.add("\($0.completedBytes)") }
            .download(destination: destination, resumable: true)
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: destination).isSame(as: file(version: 2)))
        #expect(try names(in: folder) == ["file.bin"])
        #expect(progress.all.first != "80000")
        #expect(progress.all.last == "100000")
        #expect(try await seen(key).last == "200 bytes=80000- \"\(key)-v1\"")
    }

    @Test(arguments: ["wrong-start", "wrong-total"])
    func aRangeAnsweredWithOtherBytesStartsAgainWithoutRange(mode: String) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let destination = folder.appendingPathComponent("file.bin")
        try await TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).get("file/\(key)").queryItems(["cut": "30000", "range": mode])
            .download(destination: destination)
        #expect(try Data(contentsOf: destination).isSame(as: file()))
        #expect(try names(in: folder) == ["file.bin"])
        #expect(try await seen(key) == ["200 - -", "206 bytes=30000- \"\(key)-v1\"", "200 - -"])
    }

    @Test func aFileLongerThanAnnouncedFailsTheLengthCheckAndIsNotKept() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let error = await failure(of: key, ["cut": "30000", "range": "too-long"], into: folder, resumable: true)
        #expect(error?.stage == "transport")
        #expect(error?.underlyingError as? ApiClientError == ApiClientError(.downloadLengthMismatch, message: "downloaded 100010 bytes where the server announced 100000"))
        #expect(try names(in: folder) == [])
    }

    @Test func aFileShortOfItsTotalIsContinuedThenFailsTheLengthCheck() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        // Each Range is answered with half of the bytes asked for.
        let error = await failure(of: key, ["cut": "30000", "range": "half"], into: folder)
        #expect(error?.underlyingError as? ApiClientError == ApiClientError(.downloadLengthMismatch, message: "downloaded 91250 bytes where the server announced 100000"))
        #expect(try names(in: folder) == [])
        let etag = "\"\(key)-v1\""
        #expect(try await seen(key) == ["200 - -", "206 bytes=30000- \(etag)", "206 bytes=65000- \(etag)", "206 bytes=82500- \(etag)"])
    }

    @Test func aContinuationTheChainRetriedForItsStatusCountsThoseRetriesInTheError() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: 0, jitter: 0, retryableStatusCodes: [503])
        let error = await #expect(throws: RequestError.self) {
            try await TestServer.client("/transfers/").retryPolicy(policy).httpStatusCodeRange().get("file/\(key)")
                .queryItems(["cut": "20000", "range": "error"])
                .download(destination: folder.appendingPathComponent("file.bin"))
        }
        // The cut, then a continuation answered 503 three times (the chain's own retries): four
        // sends under one count, and the last answer's status.
        #expect(error?.attempts == 4)
        #expect(error?.statusCode == 503)
        #expect((error?.validationError as? ApiClientError)?.code == .unacceptableStatusCode)
        #expect(error?.localizedDescription.contains("after 4 attempts: ") == true)
        let etag = "\"\(key)-v1\""
        #expect(try await seen(key) == ["200 - -"] + Array(repeating: "503 bytes=20000- \(etag)", count: 3))
    }

    @Test func anErrorStatusAnsweringAContinuationLeavesTheBytesOnDisk() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let destination = folder.appendingPathComponent("file.bin")
        let request = try TestServer.client("/transfers/").retryPolicy(.continuingAtOnce).httpStatusCodeRange()
            .get("file/\(key)").queryItems(["cut": "20000", "range": "error"])
        for call in 1...2 {
            let error = await #expect(throws: RequestError.self) { try await request.download(destination: destination, resumable: true) }
            guard case .validate(_, let data, let response, _) = error else {
                Issue.record("expected .validate, got \(String(describing: error))")
                return
            }
            // The first call sent the request twice (the cut, then its continuation); the
            // second one continued the bytes on disk at once.
            #expect(error?.attempts == (call == 1 ? 2 : 1))
            #expect(response.statusCode == 503)
            #expect(String(decoding: data, as: UTF8.self) == #"{"detail": "ranges refused"}"#)
            #expect(try names(in: folder) == [".file.bin.partial", ".file.bin.partial.json"])
            #expect(try Data(contentsOf: folder.appendingPathComponent(".file.bin.partial")).isSame(as: file().prefix(20_000)))
        }
        let etag = "\"\(key)-v1\""
        #expect(try await seen(key) == ["200 - -", "503 bytes=20000- \(etag)", "503 bytes=20000- \(etag)"])
    }
}
#endif
