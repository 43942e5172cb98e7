#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Servers that break HTTP (`Scripts/testserver/routes_faults.py`): every call ends within a
/// bounded time, as a `RequestError` of the right stage with the same `URLError` code on every
/// engine (Sources/SwiftApiDsl/SwiftApiDsl.docc/Errors.md, "What each failure looks like"), and no secret in its description.
@Suite struct FaultWireTests {
    /// A client on the fault routes that sends secrets, so descriptions can be checked for them.
    ///
    /// `Connection: close`: each case gets a connection of its own. A pooled connection that a
    /// previous broken answer left behind (bytes after a 204, a server that closed it) would
    /// fail the next case with that answer's fault instead of its own.
    private func client(through transport: any HTTPTransport = WireTransport.shared) throws -> ApiClient {
        ApiClient(transport: transport, baseUrl: try TestServer.url("/faults/"))
            .header("Connection", "close")
            .header("Authorization", "Bearer fault-secret-token")
            .header("X-Api-Key", "fault-secret-key")
            .timeoutInterval(5)
    }

    /// Sends GET `route` and checks it fails as `.transport` with `code` within 10 s.
    private func expectFailure(_ route: String, _ code: URLError.Code, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let client = try client()
        let (result, elapsed) = await measure { await Result { try await client.get(route).perform() } }
        #expect(elapsed < 10, sourceLocation: sourceLocation)
        guard case .failure(let error) = result else {
            Issue.record("\(route) succeeded", sourceLocation: sourceLocation)
            return
        }
        let requestError = error.asRequestError
        #expect(requestError.stage == "transport", sourceLocation: sourceLocation)
        #expect((requestError.underlyingError as? URLError)?.code == code, "\(String(reflecting: error))", sourceLocation: sourceLocation)
        expectNoSecret(in: error, sourceLocation: sourceLocation)
    }

    private func expectNoSecret(in error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in ["\(error)", String(reflecting: error), error.localizedDescription] {
            #expect(!text.contains("fault-secret"), "\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func bodyShorterThanItsLengthIsALostConnection() async throws {
        try await expectFailure("short-body", .networkConnectionLost)
    }

    @Test func closeAfterTheHeadIsALostConnection() async throws {
        try await expectFailure("close-after-headers", .networkConnectionLost)
    }

    @Test func closeBeforeAnyByteIsALostConnection() async throws {
        try await expectFailure("close-before-any-byte", .networkConnectionLost)
    }

    @Test func resetIsALostConnection() async throws {
        try await expectFailure("reset", .networkConnectionLost)
    }

    @Test func garbageStatusLineIsABadResponse() async throws {
        try await expectFailure("garbage-status", .badServerResponse)
    }

    @Test func invalidChunkedEncodingIsABadResponse() async throws {
        try await expectFailure("invalid-chunked", .badServerResponse)
    }

    @Test func truncatedChunkedEncodingIsALostConnection() async throws {
        try await expectFailure("truncated-chunked", .networkConnectionLost)
    }

    @Test func hugeHeaderIsABadResponse() async throws {
        try await expectFailure("huge-header", .badServerResponse)
    }

    @Test func hugeDeclaredLengthWithASmallBodyIsALostConnection() async throws {
        try await expectFailure("huge-declared-length", .networkConnectionLost)
    }

    @Test func corruptGzipBodyCannotBeDecoded() async throws {
        try await expectFailure("corrupt-gzip", .cannotDecodeContentData)
    }

    @Test func conflictingContentLengthsAreABadResponse() async throws {
        // RFC 9112 §6.3: two different lengths (5 and 10) make the message unreadable.
        try await expectFailure("conflicting-lengths", .badServerResponse)
    }

    @Test func redirectLoopStopsAtTheMaximum() async throws {
        try await expectFailure("redirect-loop", .httpTooManyRedirects)
    }

    @Test func http10BodyEndsWithTheConnection() async throws {
        let text = try await String(decoding: client().get("http10-read-to-close").perform().body, as: UTF8.self)
        #expect(text == "read until close")
    }

    @Test func informationalResponseBeforeTheAnswerIsSkipped() async throws {
        // A `103 Early Hints`, then the final `200`: the caller sees the 200 and its body only,
        // on a connection of its own and on a kept-alive one alike (twice on the same pool).
        for client in try [client(), TestServer.client("/faults/").timeoutInterval(5), TestServer.client("/faults/").timeoutInterval(5)] {
            let (result, elapsed) = await measure { await Result { try await client.get("informational-first").perform() } }
            #expect(elapsed < 10)
            let response = try result.get()
            #expect(response.statusCode == 200)
            #expect(response.body == Data("final".utf8))
        }
    }

    @Test func noContentWithABodyIsAnEmptyNoContent() async throws {
        let response = try await client().get("no-content-with-body").perform()
        #expect(response.statusCode == 204)
        #expect(response.body.isEmpty)
    }

    @Test func thousandsOfHeadersAreRead() async throws {
        // 5,000 fields, about 110 KB on the wire. AsyncHTTPClient (SwiftNIO's decoder) counts
        // names and values only against its 80 KiB limit on a head: 77,795 bytes here, read
        // however the bytes arrive. URLSession has no such limit. (One 1 MiB field is refused:
        // `hugeHeaderIsABadResponse`.)
        let response = try await client().get("many-headers").perform()
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Field-0") == "0")
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Field-4999") == "4999")
        #expect(response.body == Data("ok".utf8))
    }

    @Test(arguments: ["redirect-to-file", "redirect-to-ftp"])
    func redirectToANonHTTPSchemeIsNotFollowed(route: String) async throws {
        // Only http and https are followed: the 302 itself is the answer, its Location untouched.
        let response = try await client().get(route).perform()
        #expect(response.statusCode == 302)
        #expect(response.httpResponse.url?.lastPathComponent == route)
        #expect(response.body.isEmpty)
    }

    @Test func downloadThatDiesHalfWayLeavesNothingOnDisk() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("half.bin")
        let error = await #expect(throws: RequestError.self) { try await client().get("dies-half-way").download(destination: destination) }
        #expect(error?.stage == "transport")
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func uploadCutByTheServerIsALostConnection() async throws {
        // 4 MB in memory; the server reads 64 KiB and resets the connection.
        let error = await #expect(throws: RequestError.self) {
            try await client().post("cut-upload").body(Data(count: 4_000_000)).perform()
        }
        #expect(error?.stage == "transport")
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost, "\(String(reflecting: error))")
        if let error { expectNoSecret(in: error) }
    }

    @Test func cutUploadsOfFilesAndFormsFailCleanlyEveryTime() async throws {
        // A 1 MB file, sent alone and in a multipart form; the server reads 64 KiB and resets the
        // connection. Twenty rounds: streamed through `uploadTask(with:fromFile:)`, URLSession on
        // Linux crashed the process a few calls after such a cut (Docs/LinuxNotes.md).
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload.bin")
        try Data(repeating: 0x2A, count: 1_000_000).write(to: file)
        // A transport of its own: on the shared one, the suite's slow tests (a drip of 4 s, stalls)
        // can hold every connection URLSession allows to the host (6 on Linux), and an upload
        // queued behind them for the idle timeout fails `.timedOut`, not from the cut.
        let client = try client(through: WireTransport.fresh())
        for _ in 0..<20 {
            let uploads = [
                client.post("cut-upload").uploadFile(file),
                client.post("cut-upload").multipartFormData {
                    TextField(name: "title", value: "cut")
                    FileField(name: "file", fileURL: file, mimeType: "application/octet-stream")
                },
            ]
            for upload in uploads {
                let error = await #expect(throws: RequestError.self) { try await upload.perform() }
                #expect(error?.stage == "transport")
                #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost, "\(String(reflecting: error))")
                if let error { expectNoSecret(in: error) }
            }
        }
    }

    /// A server that answers at once and closes the connection with the upload unread: the
    /// client either reads the answer, or meets the closed connection while it sends (a broken
    /// pipe on Linux's URLSession, which reported it as `.unknown`): then it is the lost
    /// connection every engine reports, never another code.
    @Test func anAnswerBeforeTheUploadIsReadIsTheAnswerOrALostConnection() async throws {
        let client = try client(through: WireTransport.fresh())
        for _ in 0..<10 {
            do {
                let answer: Data = try await client.post("answer-unread").body(Data(count: 4 << 20)).perform()
                #expect(answer == Data("ok".utf8))
            } catch let error as RequestError {
                #expect(error.stage == "transport")
                #expect((error.underlyingError as? URLError)?.code == .networkConnectionLost, "\(String(reflecting: error))")
                expectNoSecret(in: error)
            }
        }
    }

    @Test func stallAfterTheHeadTimesOut() async throws {
        let client = try client().timeoutInterval(0.5)
        let (result, elapsed) = await measure { await Result { try await client.get("stall-after-headers").perform() } }
        #expect(elapsed < 10)
        guard case .failure(let error) = result else {
            Issue.record("the stalled request succeeded")
            return
        }
        #expect(error.asRequestError.stage == "transport")
        #expect((error.asRequestError.underlyingError as? URLError)?.code == .timedOut)
    }

    @Test func slowDripDoesNotTimeOut() async throws {
        // A byte every 0.4 s for 4 s: a 3 s deadline would fire, a 3 s idle timeout must not
        // (the margin absorbs a busy test machine and a busy test server).
        let response = try await client().get("slow-drip").queryItem(name: "gap", "0.4").timeoutInterval(3).perform()
        #expect(response.body == Data("0123456789".utf8))
    }
}
#endif
