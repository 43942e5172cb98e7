#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Pagination against the test server's paginated routes (Scripts/testserver/routes_pages.py).
@Suite struct PaginationWireTests {
    struct DrfPage: Decodable, Sendable {
        let count: Int
        let next: String?
        let previous: String?
        let results: [String]
        let auth: String?
    }

    struct NumberedPage: Decodable, Sendable {
        let page: Int
        let totalPages: Int
        let results: [String]
    }

    private let allItems = (1...7).map { "item-\($0)" }

    @Test func drfPagesFollowAbsoluteNextLinksWithAuthentication() async throws {
        let client = try TestServer.client().authentication(.bearer("page-token")).httpStatusCodeRange()
        // `tag` is in the first request and in every link; the server refuses it twice.
        let first = Endpoint<DrfPage>(.get, "pages/drf", query: [URLQueryItem(name: "tag", value: "x")])
        var pages: [DrfPage] = []
        for try await page in client.pages(first, next: .url { $0.next }) { pages.append(page) }
        #expect(pages.map(\.results) == [["item-1", "item-2", "item-3"], ["item-4", "item-5", "item-6"], ["item-7"]])
        #expect(pages.map(\.auth) == ["Bearer page-token", "Bearer page-token", "Bearer page-token"])
        #expect(pages.last?.next == nil)
        #expect(pages.last?.previous == (try TestServer.url("/pages/drf?tag=x&page=2")).absoluteString)
    }

    @Test func linksToTheSameServerUnderAnotherNameGetNoAuthentication() async throws {
        let root = try TestServer.url()
        var components = try #require(URLComponents(url: root, resolvingAgainstBaseURL: false))
        components.host = "localhost"
        let other = try #require(components.url)
        // Start on the other name: its links point there too, away from the base URL's origin.
        let client = try TestServer.client().authentication(.bearer("page-token"))
        let first = Endpoint<DrfPage>(url: other.appendingPathComponent("pages/drf"))
        let auths = try await client.pages(first, next: .url { $0.next }).items { [$0.auth] }.collect()
        #expect(auths == [nil, nil, nil])
    }

    @Test func linkHeaderPagesAreFollowed() async throws {
        let client = try TestServer.client().httpStatusCodeRange()
        let items = try await client.pages(Endpoint<[String]>(.get, "pages/link"), next: .linkHeader).items { $0 }.collect()
        #expect(items == allItems)
    }

    @Test func numberedPagesStopAtTheLastPage() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let client = try TestServer.client().httpStatusCodeRange()
        let first = Endpoint<NumberedPage>(.get, "pages/numbered", query: [URLQueryItem(name: "size", value: "2")], jsonDecoder: decoder)
        var numbers: [Int] = []
        var items: [String] = []
        for try await page in client.pages(first, next: .pageNumber(isLast: { $0.page >= $0.totalPages })) {
            numbers.append(page.page)
            items += page.results
        }
        #expect(numbers == [1, 2, 3, 4])
        #expect(items == allItems)
    }

    /// httpbin echoes the query: the token it reads back is the one sent, `/`, `+` and `=` intact.
    @Test func queryTokenPagesCarryTheTokenIntact() async throws {
        let tokens = ["": "a/b+c= d", "a/b+c= d": "second"]
        var seen: [OneOrMany?] = []
        let pages = try HttpBin.client().pages(Endpoint<Echo>(.get, "anything/objects"), next: .queryToken("continuation-token") { echo in
            guard case .one(let token)? = echo.args["continuation-token"] else { return tokens[""] }
            return tokens[token]
        })
        for try await page in pages { seen.append(page.args["continuation-token"]) }
        #expect(seen == [nil, "a/b+c= d", "second"])
    }

    @Test func aPagePastTheLastThrowsTheServersErrorDocument() async throws {
        struct DrfError: Decodable, Error, Equatable { let detail: String }
        let client = try TestServer.client().httpStatusCodeRange().decodingErrorBody(DrfError.self)
        let error = await #expect(throws: RequestError.self) {
            try await client.perform(Endpoint<DrfPage>(.get, "pages/drf", query: [URLQueryItem(name: "page", value: "9")]))
        }
        #expect(error?.validationError as? DrfError == DrfError(detail: "Invalid page."))
        #expect(error?.statusCode == 404)
    }

    @Test func aLoopingServerIsStopped() async throws {
        let client = try TestServer.client().httpStatusCodeRange()
        var seen: [String] = []
        let error = await #expect(throws: ApiClientError.self) {
            for try await page in client.pages(Endpoint<DrfPage.Loop>(.get, "pages/loop"), next: .url { $0.next }) {
                seen += page.results
            }
        }
        #expect(error?.code == .repeatedPageLink)
        #expect(error?.url == (try TestServer.url("/pages/loop?page=2")))
        #expect(seen == ["loop-1", "loop-2", "loop-1"])
    }
}

extension PaginationWireTests.DrfPage {
    /// The looping route's page.
    struct Loop: Decodable, Sendable {
        let next: String?
        let results: [String]
    }
}
#endif
