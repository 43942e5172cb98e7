#if AsyncHTTPClient
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// The keep-alive race for requests with a body, which only this engine can pin: on Linux,
/// URLSession's own resend of such a request never completes (see
/// `URLSessionTransportWireTests.requestWithABodyThatMeetsTheKeepAliveRaceHangsUntilTheTimeout`
/// and Docs/LinuxNotes.md). The case without a body is shared: `KeepAliveRaceWireTests`.
@Suite struct KeepAliveRaceTests {
    /// The race client, with the server dropping the second request for a key whichever
    /// connection it comes on: after an upload, AsyncHTTPClient may hand the next request a new
    /// connection before the first one is back in its pool, and that must not decide the test.
    private static func client() throws -> ApiClient {
        try KeepAliveRaceWireTests.raceClient().queryItem(name: "drop", "second")
    }

    @Test func putWithABodyThatMeetsTheRaceIsSentOnceMoreWithItsBody() async throws {
        let client = try Self.client()
        let key = UUID().uuidString
        let body = Data("replace me".utf8)
        _ = try await client.put(key).body(body).perform()
        let recorder = ObserverWireTests.Recorder()
        let second = try await client.observer(recorder.observe).put(key).body(body).perform()
        #expect(second.body == Data("ok".utf8))
        #expect(try await KeepAliveRaceWireTests.requestsReceived(key) == 3)
        #expect(recorder.lines == ["prepared /faults/keep-alive-race/\(key)", "head 200", "finished ok"])
        // The body went out twice; it is counted once.
        #expect(recorder.metrics?.bytesSent == Int64(body.count))
    }

    @Test func fileUploadThatMeetsTheRaceIsSentOnceMoreFromDisk() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload.bin")
        try Data(repeating: 7, count: 300_000).write(to: file)
        let client = try Self.client()
        let key = UUID().uuidString
        _ = try await client.put(key).uploadFile(file).perform()
        let second = try await client.put(key).uploadFile(file).perform()
        #expect(second.body == Data("ok".utf8))
        #expect(try await KeepAliveRaceWireTests.requestsReceived(key) == 3)
    }

    @Test func postThatMeetsTheRaceIsNotSentAgain() async throws {
        let client = try Self.client()
        let key = UUID().uuidString
        _ = try await client.post(key).body(Data("order".utf8)).perform()
        let error = await #expect(throws: RequestError.self) {
            try await client.post(key).body(Data("order".utf8)).perform()
        }
        #expect(error?.stage == "transport")
        #expect((error?.underlyingError as? URLError)?.code == .networkConnectionLost, "\(String(reflecting: error))")
        #expect(try await KeepAliveRaceWireTests.requestsReceived(key) == 2)
    }
}
#endif
