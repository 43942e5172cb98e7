import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient

/// What only this transport has to get right, beyond the shared wire cases: the exchange it
/// performs on its own (no redirect followed, headers joined), streamed bodies with their
/// exact length, and its idle timer and cancellation.
@Suite struct AsyncHTTPClientTransportTests {
    /// Text longer than one streamed chunk (256 KiB), so that the body goes out in several.
    private static let longText = String(repeating: "0123456789abcdef", count: 40_000)

    @Test func transportHandsBackARedirectWithoutFollowingIt() async throws {
        let url = try HttpBin.url("/redirect-to?url=/get&status_code=302")
        let (body, response) = try await AsyncHTTPClientTransport.shared.data(for: TransportRequest(urlRequest: URLRequest(url: url)))
        #expect(response.statusCode == 302)
        #expect(response.value(forHTTPHeaderField: "Location") == "/get")
        #expect(response.url == url)
        #expect(body == Data())
    }

    @Test func pipelineFollowsRedirectsOverThisTransport() async throws {
        let response = try await HttpBin.client().get("redirect/2").perform()
        #expect(response.httpResponse.statusCode == 200)
        #expect(response.httpResponse.url == (try HttpBin.url("/get")))
    }

    @Test func doNotFollowKeepsThe3xx() async throws {
        let response = try await HttpBin.client().get("redirect/1").redirectPolicy(.doNotFollow).perform()
        #expect(response.httpResponse.statusCode == 302)
    }

    @Test func repeatedResponseHeadersAreJoinedWithCommas() async throws {
        let response = try await HttpBin.client().get("response-headers")
            .queryItem(name: "X-Multi", "a").queryItem(name: "X-Multi", "b")
            .perform()
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Multi") == "a, b")
    }

    @Test func multipartFileFieldIsStreamedWithTheFormLength() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data(Self.longText.utf8).write(to: file)
        let form = MultipartFormData(boundary: "fixed-boundary", parts: [
            TextField(name: "kind", value: "notes").part,
            FileField(name: "upload", fileURL: file, mimeType: "text/plain").part,
        ])
        let echo: Echo = try await HttpBin.client().post("post")
            .multipartFormData(boundary: "fixed-boundary") {
                TextField(name: "kind", value: "notes")
                FileField(name: "upload", fileURL: file, mimeType: "text/plain")
            }
            .perform()
        #expect(echo.header("Content-Length") == String(try form.contentLength()))
        #expect(echo.header("Transfer-Encoding") == nil)
        #expect(echo.form == ["kind": "notes"])
        #expect(echo.files == ["upload": .one(Self.longText)])
    }

    @Test func downloadStreamsTheBodyIntoTheDestination() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("range.txt")
        let response = try await HttpBin.client().get("range/100000").download(destination: destination)
        #expect(response.statusCode == 200)
        // httpbin's /range/n sends the alphabet over and over, n bytes in all.
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let expected = Data((0..<100_000).map { alphabet[$0 % 26] })
        #expect(try Data(contentsOf: destination) == expected)
    }

    @Test func subSecondTimeoutFailsAsTimedOut() async throws {
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().get("delay/3").timeoutInterval(0.3).perform()
        }
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(error?.isCancellation == false)
    }

    @Test func timerIsIdleTimeNotTotalTime() async throws {
        // One byte every 0.3 s for 1.5 s, with a 1 s idle timeout.
        let data: Data = try await HttpBin.client().get("drip")
            .queryItems(["duration": "1.5", "numbytes": "5", "delay": "0"])
            .timeoutInterval(1)
            .perform()
        #expect(data == Data("*****".utf8))
    }

    @Test func cancellingTheTaskFailsAsCancellation() async throws {
        let client = try HttpBin.client()
        let task = Task { try await client.get("delay/5").perform() }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        let error = await #expect(throws: RequestError.self) { try await task.value }
        #expect(error?.underlyingError is CancellationError)
    }

    @Test func refusedConnectionFailsAsCannotConnectToHost() async throws {
        // Without retries: by default AsyncHTTPClient retries a refused connection until its connect timeout.
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ApiClient(asyncHTTPClient: transport, baseUrl: try #require(URL(string: "http://127.0.0.1:9")))
        let error = await #expect(throws: RequestError.self) { try await client.get("x").perform() }
        guard case .transport(let request, _) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(request.url?.absoluteString == "http://127.0.0.1:9/x")
        #expect((error?.underlyingError as? URLError)?.code == .cannotConnectToHost)
        try await transport.shutdown()
    }

    @Test func ownTransportShutsDownOnceAndThenRefusesRequests() async throws {
        let transport = AsyncHTTPClientTransport()
        let client = ApiClient(asyncHTTPClient: transport, baseUrl: try HttpBin.url())
        #expect(try await client.get("get").perform().httpResponse.statusCode == 200)
        try await transport.shutdown()
        try await transport.shutdown()
        await #expect(throws: RequestError.self) { try await client.get("get").perform() }
    }
}
