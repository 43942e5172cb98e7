#if OpenAPI && AsyncHTTPClient
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient

/// The loopback servers `Scripts/test` starts and announces in the environment.
enum Servers {
    struct NotRunning: Error, CustomStringConvertible {
        let variable: String
        var description: String { "\(variable) is not set: run the tests through Scripts/test, which starts the servers" }
    }

    /// httpbin's root URL (`HTTPBIN_URL`).
    static func httpbin() throws -> URL { try url(of: "HTTPBIN_URL") }
    /// The project's own test server's root URL (`TESTSERVER_URL`).
    static func testServer() throws -> URL { try url(of: "TESTSERVER_URL") }

    private static func url(of variable: String) throws -> URL {
        guard let root = ProcessInfo.processInfo.environment[variable], let url = URL(string: root) else {
            throw NotRunning(variable: variable)
        }
        return url
    }
}

/// The two engines every wire test runs on.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession, asyncHTTPClient

    var transport: any HTTPTransport {
        switch self {
        case .urlSession: Self.session
        case .asyncHTTPClient: AsyncHTTPClientTransport.shared
        }
    }

    private static let session = URLSessionTransport()

    /// A client on this engine based at `baseUrl`.
    func client(_ baseUrl: URL) -> ApiClient { ApiClient(transport: transport, baseUrl: baseUrl) }

    var testDescription: String { rawValue }
}
#endif
