import Foundation
import SwiftApiDsl

// Seed 004's own surface, kept as the app calls it: `NetworkManaging` with `fetch(from:)`, its
// `NetworkManager`, and its `NetworkError`, which the client throws for every failure, pages
// included.

/// The errors the catalogue app shows, from seed 004.
public enum NetworkError: Error, Equatable, Sendable {
    case invalidResponse
    case decodingFailed
    case clientError(Int)
    case serverError(Int)
    case unknownError(Int)

    /// The app's name for a failed call; a cancellation stays a cancellation.
    static func translate(_ error: RequestError) -> Error {
        if error.isCancellation { return error }
        if case .fatal(.decoding) = error { return NetworkError.decodingFailed }
        guard let status = error.statusCode else { return NetworkError.invalidResponse }
        switch status {
        case 400...499: return NetworkError.clientError(status)
        case 500...599: return NetworkError.serverError(status)
        default: return NetworkError.unknownError(status)
        }
    }
}

/// Seed 004's network seam: what a view model calls, and what its tests replace.
public protocol NetworkManaging: Sendable {
    func fetch<T: Sendable>(from endpoint: Endpoint<T>) async throws -> T
}

/// Seed 004's `NetworkManager`, on a client that throws ``NetworkError``.
public struct NetworkManager: NetworkManaging {
    let client: ApiClient

    /// A manager for the catalogue at `baseUrl`; a test passes a mock's client to ``init(client:)``.
    public init(baseUrl: URL = URL(string: "https://gutendex.com")!) { self.init(client: Gutendex.client(baseUrl: baseUrl)) }

    public init(client: ApiClient) { self.client = client.mapError(NetworkError.translate) }

    public func fetch<T: Sendable>(from endpoint: Endpoint<T>) async throws -> T {
        try await client.perform(endpoint)
    }

    /// Every book matching `query`, page after page; a failed page throws ``NetworkError`` too.
    public func allBooks(_ query: [URLQueryItem] = []) -> PageItems<BookList, Book> {
        Gutendex.allBooks(query, on: client)
    }
}
