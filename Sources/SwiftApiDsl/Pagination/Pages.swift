import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestStarting {
    /// The pages of a paginated resource, loaded one at a time as you iterate, starting with
    /// `first` and following `next`.
    ///
    /// ```swift
    /// for try await page in client.pages(Books.search("tolstoy"), next: .url { $0.next }) {
    ///     show(page.results)
    /// }
    /// let books = try await client.pages(Books.all(), next: .url { $0.next }).items(\.results).collect()
    /// ```
    /// See ``Pages`` for how links are followed and when the pages stop.
    public func pages<Page>(_ first: Endpoint<Page>, next: PageLink<Page>) -> Pages<Page> {
        Pages(client: client, first: first, link: next)
    }
}

/// The pages of a paginated resource, as an `AsyncSequence`; made by ``RequestStarting/pages(_:next:)``.
///
/// Each page is a request through the whole pipeline: the client's modifiers, authentication,
/// validators (a mock records each page). A followed page is the first endpoint sent to the
/// next URL with ``Endpoint/with(url:)``: same method, modifiers, validators and decoding, but
/// not the endpoint's `query`, which the link carries; authentication is added only when the
/// link keeps the base URL's origin. Nothing is loaded until you iterate; iterating again
/// starts over from the first page.
///
/// It ends after a page without a next link. It throws the request's ``RequestError`` when a
/// page fails, an ``ApiClientError`` (`.repeatedPageLink`) when a link leads to a page already
/// loaded (a server loop), and `CancellationError` as soon as the iterating task is cancelled.
public struct Pages<Page>: AsyncSequence, Sendable {
    public typealias Element = Page

    let client: ApiClient
    let first: Endpoint<Page>
    let link: PageLink<Page>

    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, link: link, upcoming: first)
    }

    /// The items of every page, in order, as one `AsyncSequence`.
    ///
    /// ```swift
    /// for try await book in client.pages(Books.all(), next: .url { $0.next }).items(\.results) { … }
    /// ```
    /// `items` runs where the loop runs (on the main actor in an app's view model), not where
    /// pages load: a key path to a main-actor model's property is accepted as it is.
    public func items<Item>(_ items: @escaping (Page) -> [Item]) -> PageItems<Page, Item> {
        PageItems(pages: self, items: items)
    }

    /// Loads the pages one after the other.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let client: ApiClient
        let link: PageLink<Page>
        var upcoming: Endpoint<Page>?
        var loaded: Set<String> = []

        public mutating func next() async throws -> Page? {
            do {
                return try await load()
            } catch {
                throw client.mapped(error) // the app's error, see `ApiClient.mapError(_:)`
            }
        }

        private mutating func load() async throws -> Page? {
            guard let endpoint = upcoming else { return nil }
            upcoming = nil // an error ends the pages too
            try Task.checkCancellation()
            if let url = endpoint.url, loaded.contains(url.absoluteString) {
                let message = "the next page link \(Redaction.url(url)) leads to a page already loaded: the server's pages loop"
                throw ApiClientError(.repeatedPageLink, message: message, url: url)
            }
            let (page, raw, request) = try await endpoint.performed(on: client, mapsErrors: false)
            if let followed = endpoint.url { loaded.insert(followed.absoluteString) }
            if let url = request.url {
                loaded.insert(url.absoluteString)
                do {
                    upcoming = try link.next(page, url).map(endpoint.with(url:))
                } catch {
                    throw RequestError.fatal(.decoding(expectedType: "the next page's URL", request: request.urlRequest, response: raw, error: error))
                }
            }
            return page.body
        }
    }
}

/// The items of every page, in order; made by ``Pages/items(_:)``.
///
/// Pages load off the caller's actor; the function that picks a page's items runs in the
/// iterating task's isolation (it need not be `@Sendable`), so the sequence itself is not
/// `Sendable`: iterate it where it was made.
public struct PageItems<Page, Item>: AsyncSequence {
    public typealias Element = Item

    let pages: Pages<Page>
    let items: (Page) -> [Item]

    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator(), items: items)
    }

    /// Every item of every page, loaded to the end, in the caller's isolation.
    public func collect(isolation: isolated (any Actor)? = #isolation) async throws -> [Item] {
        var all: [Item] = []
        var iterator = makeAsyncIterator()
        while let item = try await iterator.next(isolation: isolation) { all.append(item) }
        return all
    }

    /// Hands out the current page's items, loading the next page when they run out.
    public struct Iterator: AsyncIteratorProtocol {
        var pages: Pages<Page>.Iterator
        let items: (Page) -> [Item]
        var buffered: [Item] = []
        var index = 0

        /// The next item; `items` runs in `isolation`, the iterating task's (what `for try await` passes).
        public mutating func next(isolation: isolated (any Actor)?) async throws -> Item? {
            while index == buffered.count {
                guard let page = try await pages.next() else { return nil }
                buffered = items(page)
                index = 0
            }
            defer { index += 1 }
            return buffered[index]
        }

        /// The next item, for callers that do not pass their isolation.
        public mutating func next() async throws -> Item? {
            try await next(isolation: nil)
        }
    }
}
