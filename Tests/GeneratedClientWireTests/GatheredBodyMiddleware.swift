#if OpenAPI && AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Gathers a request body of unknown length (a generated multipart body is one) before it is
/// sent, so that it goes with a `Content-Length` instead of chunked. Label Studio's server
/// (Django's development server, on wsgiref) does not read a chunked request body: it sees an
/// empty upload and answers `400` "No data found in DATA or in FILES". AsyncHTTPClient sends a
/// body of unknown length chunked, through `ApiClientTransport` as through the plain adapter.
struct GatheredBodyMiddleware: ClientMiddleware {
    /// The largest body gathered; a larger one fails the operation.
    let limit = 1 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body, case .unknown = body.length else { return try await next(request, body, baseURL) }
        let bytes = try await [UInt8](collecting: body, upTo: limit)
        return try await next(request, HTTPBody(bytes), baseURL)
    }
}
#endif
