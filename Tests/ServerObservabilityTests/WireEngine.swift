#if ServerObservability && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import AsyncHTTPClient
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient
import SwiftApiDslMock
import Testing
import Tracing

/// The engines a traced call is checked on: URLSession and AsyncHTTPClient over a real socket to
/// httpbin (started by `Scripts/test`, announced in `HTTPBIN_URL`), and the mock.
enum WireEngine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case urlSession, asyncHTTPClient, mock

    static let real: [WireEngine] = [.urlSession, .asyncHTTPClient]

    var testDescription: String { rawValue }

    struct NoServer: Error, CustomStringConvertible {
        var description: String { "HTTPBIN_URL is not set: run the tests through Scripts/test, which starts httpbin" }
    }

    /// httpbin's root.
    static func httpbin() throws -> URL {
        guard let root = ProcessInfo.processInfo.environment["HTTPBIN_URL"], let url = URL(string: root) else { throw NoServer() }
        return url
    }

    /// Runs `body` with a client of this engine on httpbin (the mock: on a made-up host, its
    /// answers stubbed by `body`), then shuts down what it made. AsyncHTTPClient gets
    /// `configuration` (by default the transport's own, without a tracer of AsyncHTTPClient's).
    @discardableResult
    func withClient<T: Sendable>(
        configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration,
        _ body: (ApiClient, ApiClientMock?) async throws -> T
    ) async throws -> T {
        switch self {
        case .urlSession:
            return try await body(ApiClient(baseUrl: try Self.httpbin()), nil)
        case .asyncHTTPClient:
            let transport = AsyncHTTPClientTransport(configuration: configuration)
            do {
                let result = try await body(ApiClient(asyncHTTPClient: transport, baseUrl: try Self.httpbin()), nil)
                try await transport.shutdown()
                return result
            } catch {
                try await transport.shutdown()
                throw error
            }
        case .mock:
            let mock = ApiClientMock(baseUrl: URL(string: "http://127.0.0.1:8080")!)
            return try await body(mock.client, mock)
        }
    }
}
#endif
