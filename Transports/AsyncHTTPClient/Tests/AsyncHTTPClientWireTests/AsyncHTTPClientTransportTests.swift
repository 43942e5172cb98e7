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
    /// httpbin's root URL, from `HTTPBIN_URL` (set by Scripts/test).
    private static func server(_ path: String = "") throws -> URL {
        let root = try #require(ProcessInfo.processInfo.environment["HTTPBIN_URL"], "run through Scripts/test, which starts httpbin")
        return try #require(URL(string: root + path))
    }

    private static func client() throws -> ApiClient {
        ApiClient(asyncHTTPClient: .shared, baseUrl: try server())
    }

    /// A file in a fresh folder holding `contents`; the caller removes the folder.
    private static func temporaryFile(named name: String, contents: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ahc-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try contents.write(to: file)
        return file
    }

    /// Text longer than one streamed chunk (256 KiB), so that the body goes out in several.
    private static let longText = String(repeating: "0123456789abcdef", count: 40_000)

    private struct Echo: Decodable {
        let headers: [String: String]
        let data: String
        let form: [String: String]
        let files: [String: String]
    }

    @Test func transportHandsBackARedirectWithoutFollowingIt() async throws {
        let url = try Self.server("/redirect-to?url=/get&status_code=302")
        let (body, response) = try await AsyncHTTPClientTransport.shared.data(for: TransportRequest(urlRequest: URLRequest(url: url)))
        #expect(response.statusCode == 302)
        #expect(response.value(forHTTPHeaderField: "Location") == "/get")
        #expect(response.url == url)
        #expect(body == Data())
    }

    @Test func pipelineFollowsRedirectsOverThisTransport() async throws {
        let response = try await Self.client().get("redirect/2").perform()
        #expect(response.httpResponse.statusCode == 200)
        #expect(response.httpResponse.url == (try Self.server("/get")))
    }

    @Test func doNotFollowKeepsThe3xx() async throws {
        let response = try await Self.client().get("redirect/1").redirectPolicy(.doNotFollow).perform()
        #expect(response.httpResponse.statusCode == 302)
    }

    @Test func repeatedResponseHeadersAreJoinedWithCommas() async throws {
        let response = try await Self.client().get("response-headers")
            .queryItem(name: "X-Multi", "a").queryItem(name: "X-Multi", "b")
            .perform()
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Multi") == "a, b")
    }

    @Test func uploadFileIsStreamedWithItsExactLength() async throws {
        let file = try Self.temporaryFile(named: "long.txt", contents: Data(Self.longText.utf8))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let echo: Echo = try await Self.client().post("anything").uploadFile(file, contentType: "text/plain").perform()
        #expect(echo.headers["Content-Length"] == "640000")
        #expect(echo.headers["Transfer-Encoding"] == nil)
        #expect(echo.headers["Content-Type"] == "text/plain")
        #expect(echo.data == Self.longText)
    }

    @Test func multipartFileFieldIsStreamedWithTheFormLength() async throws {
        let file = try Self.temporaryFile(named: "notes.txt", contents: Data(Self.longText.utf8))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let form = MultipartFormData(boundary: "fixed-boundary", parts: [
            TextField(name: "kind", value: "notes").part,
            FileField(name: "upload", fileURL: file, mimeType: "text/plain").part,
        ])
        let echo: Echo = try await Self.client().post("post")
            .multipartFormData(boundary: "fixed-boundary") {
                TextField(name: "kind", value: "notes")
                FileField(name: "upload", fileURL: file, mimeType: "text/plain")
            }
            .perform()
        #expect(echo.headers["Content-Length"] == String(try form.contentLength()))
        #expect(echo.headers["Transfer-Encoding"] == nil)
        #expect(echo.form == ["kind": "notes"])
        #expect(echo.files == ["upload": Self.longText])
    }

    @Test func downloadStreamsTheBodyIntoTheDestination() async throws {
        let folder = try Self.temporaryFile(named: "placeholder", contents: Data()).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("range.txt")
        let response = try await Self.client().get("range/100000").download(destination: destination)
        #expect(response.statusCode == 200)
        // httpbin's /range/n sends the alphabet over and over, n bytes in all.
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let expected = Data((0..<100_000).map { alphabet[$0 % 26] })
        #expect(try Data(contentsOf: destination) == expected)
    }

    @Test func subSecondTimeoutFailsAsTimedOut() async throws {
        let error = await #expect(throws: RequestError.self) {
            try await Self.client().get("delay/3").timeoutInterval(0.3).perform()
        }
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(error?.isCancellation == false)
    }

    @Test func timerIsIdleTimeNotTotalTime() async throws {
        // One byte every 0.3 s for 1.5 s, with a 1 s idle timeout.
        let data: Data = try await Self.client().get("drip")
            .queryItems(["duration": "1.5", "numbytes": "5", "delay": "0"])
            .timeoutInterval(1)
            .perform()
        #expect(data == Data("*****".utf8))
    }

    @Test func cancellingTheTaskFailsAsCancellation() async throws {
        let client = try Self.client()
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
        let client = ApiClient(asyncHTTPClient: transport, baseUrl: try Self.server())
        #expect(try await client.get("get").perform().httpResponse.statusCode == 200)
        try await transport.shutdown()
        try await transport.shutdown()
        await #expect(throws: RequestError.self) { try await client.get("get").perform() }
    }
}
