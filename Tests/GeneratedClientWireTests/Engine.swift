#if OpenAPI && AsyncHTTPClient
import Foundation
import GeneratedClient
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient
import SwiftApiDslOpenAPI

/// The two engines an `ApiClient` sends through; each test runs the generated client over
/// `ApiClientTransport` on both.
enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlSession
    case asyncHTTPClient

    var description: String { rawValue }

    /// A client on this engine, without authentication, for `baseUrl` (Airflow's root by default).
    func apiClient(baseUrl: URL? = nil) throws -> ApiClient {
        let baseUrl = try baseUrl ?? Airflow.url()
        return switch self {
        case .urlSession: ApiClient(baseUrl: baseUrl)
        case .asyncHTTPClient: ApiClient(asyncHTTPClient: .shared, baseUrl: baseUrl)
        }
    }

    /// The generated client over `ApiClientTransport(api)`, where `api` is this engine's client
    /// with a new token, shaped further by `configure` (retries, a cache, middlewares).
    func generatedClient(_ configure: (ApiClient) -> ApiClient = { $0 }) async throws -> Client {
        let token = try await Airflow.newToken()
        let api = configure(try apiClient().authentication(.bearer(token)))
        return Client(serverURL: try Airflow.url(), configuration: Airflow.configuration, transport: ApiClientTransport(api))
    }
}
#endif
