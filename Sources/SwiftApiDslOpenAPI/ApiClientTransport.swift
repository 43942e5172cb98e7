#if OpenAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime
import SwiftApiDsl

/// An `ApiClient` as the transport of a client written by swift-openapi-generator: every
/// operation goes through the client's whole chain (its modifiers, authentication with the
/// single-flight refresh, middlewares, retries, redirects, cache, observers, size limits and
/// timeouts) and the engine the client was made with.
///
/// ```swift
/// let api = ApiClient(baseUrl: serverURL).authentication(token: store.token, refresh: store.refresh)
/// let generated = Client(serverURL: serverURL, transport: ApiClientTransport(api))
/// ```
/// A mock answers generated operations as it answers the client's own calls:
/// `ApiClientTransport(mock)` with an `ApiClientMock` from SwiftApiDslMock.
///
/// - The generated code decides what a status code means, documented or not, so the client's
///   validators do not run for its operations unless `validation` is ``Validation/client``.
/// - A failure throws what the client's calls throw (a `RequestError`, or the app's own error
///   from `mapError`); the generated client wraps it in a `ClientError` as its
///   `underlyingError`.
/// - The operation ID names the request for middlewares and observers
///   (`TransportRequest.name`, set as the `.name(_:)` modifier does).
public struct ApiClientTransport: ClientTransport {
    /// Who decides whether a response is a failure.
    public enum Validation: Sendable, Hashable {
        /// The generated code alone (the default): every status reaches it, the client's
        /// validators do not run.
        case generatedCode
        /// The client's validators run first, as for the client's own calls; a rejected
        /// response throws `RequestError.validate` (or the app's error from `mapError`).
        case client
    }

    /// The client every operation goes through, with its validators switched off unless
    /// ``Validation/client`` was asked for.
    public let client: ApiClient
    /// Who decides whether a response is a failure.
    public let validation: Validation

    /// A transport that sends every operation through `client`: an `ApiClient`, or an
    /// `ApiClientMock` (whose stubs answer and whose recordings keep what was sent).
    public init(_ client: some RequestStarting, validation: Validation = .generatedCode) {
        self.validation = validation
        switch validation {
        case .generatedCode: self.client = client.client.validators(enabledWhen: { false })
        case .client: self.client = client.client
        }
    }

    /// Sends one operation through the client and returns its response with the body still
    /// arriving.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let url = try TargetURL.url(of: request, relativeTo: baseURL)
        let fields = request.headerFields
        let sent = try await body?.requestBody()
        let call = client.request(HttpMethod(request.method.rawValue), url: url)
            .name(operationID)
            .modifier(RequestModifier(editing: { transportRequest in
                transportRequest.headerFields.replace(with: fields)
                switch sent {
                case .data(let data)?: transportRequest.setBody(data)
                case .streamed(let streamed)?: transportRequest.setBody(.stream(streamed))
                case nil: break
                }
            }))
        let response = try await call.stream()
        return (HTTPResponse(response), HTTPBody(response, method: request.method))
    }
}
#endif
