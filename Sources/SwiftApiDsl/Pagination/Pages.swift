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
///
/// It is its own iterator: ``makeAsyncIterator()`` hands out a copy that starts at the first page.
public struct Pages<Page>: AsyncSequence, AsyncIteratorProtocol, Sendable {
    /// Each page, decoded.
    public typealias Element = Page

    let client: ApiClient
    let first: Endpoint<Page>
    let link: PageLink<Page>
    /// The page the next call to ``next()`` loads; `nil` once the pages ended or failed.
    var upcoming: Endpoint<Page>?
    /// The URLs of the pages loaded so far, to stop a server's loop.
    var loaded: Set<String> = []

    init(client: ApiClient, first: Endpoint<Page>, link: PageLink<Page>) {
        self.client = client
        self.first = first
        self.link = link
        upcoming = first
    }

    /// The pages from the first one, loaded as they are asked for.
    public func makeAsyncIterator() -> Pages {
        Pages(client: client, first: first, link: link)
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

    /// Loads the next page; `nil` after the last one.
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
