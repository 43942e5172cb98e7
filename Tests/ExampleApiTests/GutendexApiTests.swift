import Foundation
import GutendexApi
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Seed 004's book catalogue, tested with the mock as an app would.
@Suite struct GutendexApiTests {
    let mock: ApiClientMock = {
        let mock = Gutendex.client(baseUrl: URL(string: "https://gutendex.com")!).mocked()
        mock.appliesValidators = true
        return mock
    }()

    private static func page(_ ids: [Int], next: String?) -> Data {
        let books = ids.map { id in
            #"{"id":\#(id),"title":"Book \#(id)","subjects":[],"authors":[{"birth_year":1828,"death_year":1910,"name":"Tolstoy, Leo"}],"translators":[],"bookshelves":[],"languages":["en"],"copyright":false,"media_type":"Text","formats":{},"download_count":\#(id * 10)}"#
        }
        let nextJSON = next.map { "\"\($0)\"" } ?? "null"
        return Data(#"{"count":3,"next":\#(nextJSON),"previous":null,"results":[\#(books.joined(separator: ","))]}"#.utf8)
    }

    @Test func allBooksFollowsNextLinksKeepingTheQueryOnce() async throws {
        mock.resultProvider = { request in
            switch request.url?.absoluteString {
            case "https://gutendex.com/books/?languages=en":
                .response(request, body: Self.page([1, 2], next: "https://gutendex.com/books/?languages=en&page=2"))
            case "https://gutendex.com/books/?languages=en&page=2":
                .response(request, body: Self.page([3], next: nil))
            default:
                .response(request, statusCode: 404)
            }
        }
        let books = try await Gutendex.allBooks([URLQueryItem(name: "languages", value: "en")], on: mock.client).collect()
        #expect(books.map(\.id) == [1, 2, 3])
        #expect(books.first?.authors.first?.birthYear == 1828)
        #expect(books.last?.downloadCount == 30)
        #expect(mock.recordedRequests.count == 2)
    }

    @Test func notFoundDecodesTheDetail() async throws {
        mock.stub(.get, "books/:id/") { .response($0.urlRequest, body: Data(#"{"detail":"No Book matches the given query."}"#.utf8), statusCode: 404) }
        let error = await #expect(throws: RequestError.self) { try await mock.perform(Gutendex.book(id: 0)) }
        #expect((error?.validationError as? GutendexError)?.detail == "No Book matches the given query.")
    }

    @Test(arguments: [(404, NetworkError.clientError(404)), (429, .clientError(429)), (503, .serverError(503)), (302, .unknownError(302))])
    func theManagerThrowsTheAppsError(status: Int, expected: NetworkError) async throws {
        mock.stub(.get, "books/:id/", statusCode: status)
        await #expect(throws: expected) { try await NetworkManager(client: mock.client).fetch(from: Gutendex.book(id: 0)) }
    }

    @Test func aPageThatFailsThrowsTheAppsErrorAndABadBodyIsDecodingFailed() async throws {
        mock.resultProvider = { request in
            request.url?.query == "page=2" ? .response(request, statusCode: 500) : .response(request, body: Self.page([1], next: "https://gutendex.com/books/?page=2"))
        }
        let manager = NetworkManager(client: mock.client)
        await #expect(throws: NetworkError.serverError(500)) { try await manager.allBooks().collect() }
        mock.stub(.get, "books/:id/") { .response($0.urlRequest, body: Data("{}".utf8)) }
        await #expect(throws: NetworkError.decodingFailed) { try await manager.fetch(from: Gutendex.book(id: 1)) }
    }

    @Test func firstPageKeepsTheTrailingSlashDjangoNeeds() async throws {
        let request = try await mock.urlRequest(for: Gutendex.books([URLQueryItem(name: "search", value: "war peace")]))
        #expect(request.url?.absoluteString == "https://gutendex.com/books/?search=war%20peace")
    }
}
