import Foundation
import SwiftApiDsl

// Seed 004's `Endpoint` protocol, `NetworkManaging`, `NetworkManager`, `NetworkError` and
// `Request<Response>` extensions, as declarations, plus what the seed left to its reader:
// following `next` links.

/// Gutendex's error document: `{"detail": "Not found."}`.
public struct GutendexError: Decodable, Error, Sendable, Equatable {
    public let detail: String
}

/// The Gutendex catalogue of Project Gutenberg books.
public enum Gutendex {
    /// The client: snake_case JSON, 2xx only, errors decoded.
    public static func client(baseUrl: URL) -> ApiClient {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return ApiClient(baseUrl: baseUrl, jsonDecoder: decoder).httpStatusCodeRange().decodingErrorBody(GutendexError.self)
    }

    /// The first page of books matching `query` (`search`, `languages`, `topic`…).
    public static func books(_ query: [URLQueryItem] = []) -> Endpoint<BookList> { Endpoint(.get, "books/", query: query) }
    /// One book.
    public static func book(id: Int) -> Endpoint<Book> { Endpoint(.get, "books/\(id)/") }
    /// Every book matching `query`, page after page.
    public static func allBooks(_ query: [URLQueryItem] = [], on client: ApiClient) -> PageItems<BookList, Book> {
        client.pages(books(query), next: .url { $0.next }).items(\.results)
    }
}
