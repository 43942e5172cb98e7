#if OpenAPI && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GeneratedClient
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession

// Only this file imports the plain adapters: their transports share their type names with the
// library's own (`URLSessionTransport`, `AsyncHTTPClientTransport`).

/// The transports swift-openapi-generator's users have today: thin adapters over URLSession and
/// AsyncHTTPClient. The tests send the same operations through them to show that
/// `ApiClientTransport` gives the same results.
enum PlainAdapter: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlSession
    case asyncHTTPClient

    var description: String { "plain \(rawValue)" }

    /// This adapter's transport, with its default settings.
    var transport: any ClientTransport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        }
    }

    /// The generated client over this adapter, sending a new token with every operation (the
    /// adapters have no authentication of their own: a `ClientMiddleware` adds it).
    func generatedClient() async throws -> Client {
        let bearer = BearerMiddleware(token: try await Airflow.newToken())
        return Client(serverURL: try Airflow.url(), configuration: Airflow.configuration, transport: transport, middlewares: [bearer])
    }
}

/// Adds `Authorization: Bearer <token>` to every operation, as users of the plain adapters do.
struct BearerMiddleware: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// Sets `Authorization` to `value` on every operation (Label Studio's `Token <token>`).
struct AuthorizationMiddleware: ClientMiddleware {
    let value: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = value
        return try await next(request, body, baseURL)
    }
}
#endif
