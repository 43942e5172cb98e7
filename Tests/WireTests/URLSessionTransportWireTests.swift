import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslCache

/// What is particular to the URLSession transport (the shared cases are in `Shared/`).
@Suite struct URLSessionTransportWireTests {
    /// Called directly, with a control nothing watches, the transport still stops gathering a
    /// streamed body whose producer stalls when its caller is cancelled.
    @Test(.timeLimit(.minutes(1))) func cancellingTheCallerStopsTheGatheringOfAStalledBody() async throws {
        let (reads, read) = AsyncStream<Void>.makeStream()
        let stalled = StreamedBody(length: nil, repeatable: false) {
            ResponseBody(AsyncStream<Data> { continuation in
                continuation.yield(Data(repeating: UInt8(ascii: "s"), count: 1024))
                read.yield()
            })
        }
        var request = TransportRequest(url: try TestServer.url("/sink"), method: .post)
        request.setBody(.stream(stalled))
        let sending = Task { try await URLSessionTransport().send(request, control: ExchangeControl()) }
        // Cancelled once the gathering has begun, not before `send` looks at its task.
        var started = reads.makeAsyncIterator()
        _ = await started.next()
        sending.cancel()
        let result = await sending.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    /// A transport that wraps another (a logging decorator, a test double) and forwards
    /// `cookieField(for:)`, as the protocol asks.
    struct Logging: HTTPTransport {
        let base: any HTTPTransport
        func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
            try await base.send(request, control: control)
        }
        func cookieField(for url: URL) -> String? { base.cookieField(for: url) }
    }

    /// URLSession adds `Cookie` from its session's storage inside the transport, after the
    /// cache: the cache keys on those cookies too, so a sign-out then a sign-in as someone else
    /// is not served the first user's private answer; the same when a transport wraps URLSession's.
    @Test(arguments: [false, true]) func theCacheKeepsTheAnswersOfTwoCookieSessionsApart(wrapped: Bool) async throws {
        let sessions = try CookieSessions()
        let session = URLSessionTransport(configuration: sessions.configuration)
        let client = ApiClient(transport: wrapped ? Logging(base: session) : session, baseUrl: sessions.base).cache(.memory())
        let path = "cache/\(UUID().uuidString)/doc"
        let answers = try await sessions.adaBobAda {
            try await client.get(path).queryItems(["cc": "private, max-age=60"]).perform()
        }
        let outcomes: [ResponseSource] = answers.map(\.source)
        let requests: [Int] = answers.map(\.body.requests)
        #expect(outcomes == [.network, .network, .stored])
        #expect(requests == [1, 2, 1])
    }

    @Test func getWithABodyIsRefusedBeforeSending() async throws {
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().get("anything", body: ["a": 1]).perform()
        }
        guard case .transport(let request, let source) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(request.httpMethod == "GET")
        #expect((source as? ApiClientError)?.code == .unsupportedByTransport)
        #expect((source as? ApiClientError)?.message.hasPrefix("URLSession cannot send a GET request with a body") == true)
    }

    @Test func requestWithABodyThatMeetsTheKeepAliveRaceHangsUntilTheTimeout() async throws {
        // A known swift-corelibs-foundation defect (Docs/LinuxNotes.md, "The keep-alive race"):
        // libcurl sends the request again, whatever its method, the server reads and answers it,
        // and the task never completes; only the idle timeout ends the call. This test fails
        // the day Foundation completes it, and the docs must then change.
        let client = try KeepAliveRaceWireTests.raceClient()
        let key = UUID().uuidString
        _ = try await client.put(key).body(Data("replace me".utf8)).perform()
        let (result, elapsed) = await measure {
            await Result { try await client.put(key).body(Data("replace me".utf8)).timeoutInterval(1).perform() }
        }
        #expect(elapsed < 10)
        guard case .failure(let error) = result else {
            Issue.record("the raced PUT succeeded: Foundation completes it now; update Docs/LinuxNotes.md")
            return
        }
        #expect((error.asRequestError.underlyingError as? URLError)?.code == .timedOut)
        #expect(try await KeepAliveRaceWireTests.requestsReceived(key) == 3)
    }

    @Test func clientsMadeFromOneSessionShareOneTransport() throws {
        let session = URLSession(configuration: .ephemeral)
        let first = ApiClient(urlSession: session, baseUrl: try HttpBin.url())
        let second = ApiClient(urlSession: session, baseUrl: try HttpBin.url("/anything"))
        let other = ApiClient(urlSession: URLSession(configuration: .ephemeral), baseUrl: try HttpBin.url())
        #expect(first.transport as? URLSessionTransport === second.transport as? URLSessionTransport)
        #expect(first.transport as? URLSessionTransport !== other.transport as? URLSessionTransport)
    }

    @Test func onlyTheSharedSessionsTransportOutlivesItsClients() throws {
        weak let forShared = ApiClient(baseUrl: try HttpBin.url()).transport as? URLSessionTransport
        weak let forFresh = ApiClient(urlSession: URLSession(configuration: .ephemeral), baseUrl: try HttpBin.url()).transport as? URLSessionTransport
        #expect(forShared != nil)
        #expect(forFresh == nil)
    }

    @Test func sessionConfigurationIsKept() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-From-Configuration": "yes"]
        let client = ApiClient(urlSession: URLSession(configuration: configuration), baseUrl: try HttpBin.url())
        let echo: Echo = try await client.get("anything").perform()
        #expect(echo.header("X-From-Configuration") == "yes")
    }

    /// Cancelled once the encoding has begun, the copy stops at its next chunk: the form's
    /// temporary file grows by far less than the 8 GiB left to copy, and is removed. Measured in
    /// bytes rather than seconds, the bound holds however slowly a loaded machine copies.
    @Test(.timeLimit(.minutes(2))) func cancellingWhileALargeFormIsEncodedStopsPromptlyAndLeavesNoFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("big.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 8 << 30) // 8 GiB, sparse: encoding it whole takes seconds
        try handle.close()
        let boundary = "cancelled-\(UUID().uuidString)"
        let client = try HttpBin.client()
        let ended = Trail()
        let call = Task {
            defer { ended.add("ended") }
            return try await client.post("post").multipartFormData(boundary: boundary) { FileField(name: "f", fileURL: big) }.perform()
        }
        func formFileSize() -> UInt64 {
            let temporary = FileManager.default.temporaryDirectory
            guard let name = try? FileManager.default.contentsOfDirectory(atPath: temporary.path).first(where: { $0.contains(boundary) }),
                  let size = try? FileManager.default.attributesOfItem(atPath: temporary.appendingPathComponent(name).path)[.size] as? NSNumber
            else { return 0 }
            return size.uint64Value
        }
        // Until the encoding has begun, or the call has ended without it (reported below).
        while formFileSize() == 0, ended.all.isEmpty { try await Task.sleep(nanoseconds: 2_000_000) }
        let atCancel = formFileSize()
        let watcher = Task {
            var largest = atCancel
            while !Task.isCancelled {
                largest = max(largest, formFileSize())
                try? await Task.sleep(nanoseconds: 2_000_000)
            }
            return largest
        }
        call.cancel()
        let result = await call.result
        watcher.cancel()
        let largest = await watcher.value
        #expect(largest - atCancel < 1 << 30, "the copy went on after the cancellation: \(atCancel) → \(largest) bytes")
        guard case .failure(let error) = result else {
            Issue.record("the call succeeded after its cancellation")
            return
        }
        #expect(error.asRequestError.isCancellation)
        #expect(formFileSize() == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.contains(boundary) }
        #expect(leftovers == [])
    }
}
