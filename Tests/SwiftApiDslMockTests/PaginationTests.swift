import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Pages follow their links through the whole pipeline, stop when they should, and refuse loops.
@Suite struct PaginationTests {
    struct ItemPage: Codable, Sendable {
        var next: String?
        var results: [String]
    }

    struct NumberedPage: Codable, Sendable {
        var page: Int
        var totalPages: Int
        var results: [String]
    }

    let mock = TodosApi.client(baseUrl: Fixtures.baseUrl, token: "abc").mocked()
    let items = Endpoint<ItemPage>(.get, "items", query: [URLQueryItem(name: "tag", value: "a b")])

    private func stubPages(_ pages: [String: ItemPage]) {
        mock.resultProvider = { request in
            let key = request.url.map { "\($0.path)?\($0.query ?? "")" } ?? ""
            guard let page = pages[key] else { return .response(request, statusCode: 404) }
            return .response(request, body: page)
        }
    }

    @Test func followsAbsoluteAndRelativeLinksWithoutRepeatingTheQuery() async throws {
        stubPages([
            "/api/items?tag=a%20b": ItemPage(next: "https://example.com/api/items?tag=a%20b&page=2", results: ["1", "2"]),
            "/api/items?tag=a%20b&page=2": ItemPage(next: "?tag=a%20b&page=3", results: ["3"]),
            "/api/items?tag=a%20b&page=3": ItemPage(next: nil, results: ["4"]),
        ])
        let all = try await mock.pages(items, next: .url { $0.next }).items(\.results).collect()
        #expect(all == ["1", "2", "3", "4"])
        #expect(mock.recordedRequests.map(\.url.absoluteString) == [
            "https://example.com/api/items?tag=a%20b",
            "https://example.com/api/items?tag=a%20b&page=2",
            "https://example.com/api/items?tag=a%20b&page=3",
        ])
        #expect(mock.recordedRequests.allSatisfy { $0.header(.authorization) == "Bearer abc" && $0.header(.accept) == "application/json" })
    }

    @Test func aLinkToAnotherOriginIsFollowedWithoutAuthentication() async throws {
        stubPages([
            "/api/items?tag=a%20b": ItemPage(next: "https://cdn.example.com/items?page=2", results: ["1"]),
            "/items?page=2": ItemPage(next: nil, results: ["2"]),
        ])
        let pages = try await mock.pages(items, next: .url { $0.next }).items(\.results).collect()
        #expect(pages == ["1", "2"])
        #expect(mock.recordedRequests.map { $0.header(.authorization) } == ["Bearer abc", nil])
    }

    @Test func aRepeatedLinkThrowsAfterTheLastNewPage() async throws {
        stubPages([
            "/api/items?tag=a%20b": ItemPage(next: "items?page=2", results: ["1"]),
            "/api/items?page=2": ItemPage(next: "items?page=3", results: ["2"]),
            "/api/items?page=3": ItemPage(next: "https://example.com/api/items?page=2", results: ["3"]),
        ])
        var seen: [String] = []
        let error = await #expect(throws: ApiClientError.self) {
            for try await page in mock.pages(items, next: .url { $0.next }) { seen += page.results }
        }
        #expect(error?.code == .repeatedPageLink)
        #expect(error?.url?.absoluteString == "https://example.com/api/items?page=2")
        #expect(seen == ["1", "2", "3"])
        #expect(mock.recordedRequests.count == 3)
    }

    @Test func aDecodedUrlLinkIsFollowedToo() async throws {
        struct UrlPage: Codable, Sendable {
            var next: URL?
            var results: [String]
        }
        mock.resultProvider = { request in
            let second = request.url?.query == "after=b"
            return .response(request, body: UrlPage(next: second ? nil : URL(string: "items?after=b"), results: [second ? "c" : "a"]))
        }
        let pages = mock.pages(Endpoint<UrlPage>(.get, "items"), next: .url { $0.next })
        #expect(try await pages.items(\.results).collect() == ["a", "c"])
        #expect(mock.recordedRequests.last?.url.absoluteString == "https://example.com/api/items?after=b")
    }

    @Test func pageNumbersStopWhenThePageSaysItIsTheLast() async throws {
        mock.resultProvider = { request in
            let number = Int(request.url?.query?.split(separator: "=").last ?? "1") ?? 1
            return .response(request, body: NumberedPage(page: number, totalPages: 3, results: ["p\(number)"]))
        }
        let pages = mock.pages(Endpoint<NumberedPage>(.get, "numbered"), next: .pageNumber(isLast: { $0.page >= $0.totalPages }))
        #expect(try await pages.items(\.results).collect() == ["p1", "p2", "p3"])
        #expect(mock.recordedRequests.map(\.url.absoluteString) == [
            "https://example.com/api/numbered", "https://example.com/api/numbered?page=2", "https://example.com/api/numbered?page=3",
        ])
    }

    struct TokenPage: Codable, Sendable { var next: String?; var results: [String] }

    /// The token replaces the one in the query, encoded so that `/`, `+` and `=` survive, and
    /// the other query items stay.
    @Test func queryTokensAreSentEncodedAndStopWithoutAToken() async throws {
        mock.resultProvider = { request in
            let query = request.url?.query ?? ""
            let page = query.contains("cursor=a%2Fb%2Bc%3D") ? TokenPage(next: nil, results: ["2"])
                : TokenPage(next: "a/b+c=", results: ["1"])
            return .response(request, body: page)
        }
        let pages = mock.pages(Endpoint<TokenPage>(.get, "objects", query: [URLQueryItem(name: "prefix", value: "x")]),
                               next: .queryToken("cursor") { $0.next })
        #expect(try await pages.items(\.results).collect() == ["1", "2"])
        #expect(mock.recordedRequests.map { $0.url.query ?? "" } == ["prefix=x", "prefix=x&cursor=a%2Fb%2Bc%3D"])
    }

    @Test func offsetsAdvanceByTheItemCountAndStopOnAnEmptyPage() async throws {
        mock.resultProvider = { request in
            let offset = Int(request.url?.query?.split(separator: "=").last ?? "0") ?? 0
            let results = offset < 5 ? (offset..<min(offset + 2, 5)).map(String.init) : []
            return .response(request, body: ItemPage(next: nil, results: results))
        }
        let pages = mock.pages(Endpoint<ItemPage>(.get, "log"), next: .offset(itemCount: { $0.results.count }))
        #expect(try await pages.items(\.results).collect() == ["0", "1", "2", "3", "4"])
        #expect(mock.recordedRequests.map { $0.url.query ?? "" } == ["", "offset=2", "offset=4", "offset=5"])
    }

    @Test func linkHeaderIsFollowedRelativeToThePage() async throws {
        mock.resultProvider = { request in
            let page = request.url?.query == "page=2" ? 2 : 1
            let link = page == 1 ? #"</api/feed?page=0>; rel="prev first", <feed?page=2>; rel="next""# : #"</api/feed>; rel="first""#
            return .response(request, body: ["f\(page)"], headers: ["Link": link])
        }
        let pages = mock.pages(Endpoint<[String]>(.get, "feed"), next: .linkHeader)
        #expect(try await pages.items { $0 }.collect() == ["f1", "f2"])
        #expect(mock.recordedRequests.last?.url.absoluteString == "https://example.com/api/feed?page=2")
    }

    @Test func aFailedPageEndsThePagesWithItsRequestError() async throws {
        mock.appliesValidators = true
        stubPages(["/api/items?tag=a%20b": ItemPage(next: "items?page=2", results: ["1"])])
        var iterator = mock.pages(items, next: .url { $0.next }).makeAsyncIterator()
        #expect(try await iterator.next()?.results == ["1"])
        let error = await #expect(throws: RequestError.self) { try await iterator.next() }
        #expect(error?.statusCode == 404)
        #expect(try await iterator.next() == nil)
    }

    @Test func cancellingTheConsumerStopsAtOnce() async throws {
        mock.latency = 30
        stubPages(["/api/items?tag=a%20b": ItemPage(next: "items?page=2", results: ["1"])])
        let pages = mock.pages(items, next: .url { $0.next })
        let task = Task {
            var count = 0
            for try await _ in pages { count += 1 }
            return count
        }
        while mock.recordedRequests.isEmpty { await Task.yield() }
        let started = Date()
        task.cancel()
        let result = await task.result
        #expect(throws: (any Error).self) { try result.get() }
        #expect(mock.recordedRequests.count == 1)
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
