import Foundation
import SwiftApiDsl

// Seed 000's own surface, kept as the app calls it: the `Api` type with `getData`, `postData`,
// `putData` and `deleteData`, and its `ApiError`, which the client throws for every failure.

/// The errors the to-do app shows, from seed 000.
public enum ApiError: Error, Equatable, Sendable {
    case invalidUrl, serverError, invalidResponse, invalidData, badRequest, notFound

    /// The app's name for a failed call: 400, 404, any other status, a body that did not decode,
    /// a path that does not form a URL, anything else.
    init(_ error: RequestError) {
        if case .fatal(.decoding) = error { self = .invalidData; return }
        switch error.statusCode {
        case 400?: self = .badRequest
        case 404?: self = .notFound
        case .some: self = .serverError
        case nil where (error.underlyingError as? ApiClientError)?.code == .unresolvableURL: self = .invalidUrl
        case nil: self = .invalidResponse
        }
    }
}

/// Seed 000's `Api` class: `try await api.getData(endpoint: "/todos")`.
public struct Api: Sendable {
    let client: ApiClient

    /// An API on `baseUrl`; a test passes a mock's client to ``init(client:)`` instead.
    public init(baseUrl: URL) { self.init(client: Todos.client(baseUrl: baseUrl)) }

    /// An API on `client`, which throws ``ApiError`` for every failure.
    public init(client: ApiClient) { self.client = client.mapError { ApiError($0) } }

    public func getData<T: Decodable & Sendable>(endpoint: String) async throws -> T {
        try await client.get(endpoint).perform()
    }

    public func postData<T: Encodable & Sendable, U: Decodable & Sendable>(endpoint: String, payload: T) async throws -> U {
        try await client.post(endpoint, body: payload).perform()
    }

    public func putData<T: Codable & Sendable>(endpoint: String, payload: T) async throws -> T {
        try await client.put(endpoint, body: payload).perform()
    }

    public func deleteData(endpoint: String) async throws {
        _ = try await client.delete(endpoint).perform()
    }
}
