import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How ``Pages`` finds the page after the current one: a link in the body, a `Link` header, or
/// a page number, offset or token in the query. `nil` means the current page is the last.
///
/// ```swift
/// client.pages(Books.search("tolstoy"), next: .url { $0.next })            // DRF, Gutendex
/// client.pages(Repos.all(), next: .linkHeader)                             // GitHub
/// client.pages(Items.all(), next: .pageNumber(isLast: { $0.page >= $0.totalPages }))
/// ```
public struct PageLink<Page>: Sendable {
    let next: @Sendable (_ page: Response<Page>, _ url: URL) throws -> URL?

    /// A rule of your own: given the decoded page and the URL it was loaded from, the next
    /// page's URL, or `nil` after the last page.
    public init(_ next: @escaping @Sendable (_ page: Response<Page>, _ url: URL) throws -> URL?) {
        self.next = next
    }

    /// The next page's URL as the page gives it: absolute, or relative to the page's URL
    /// (`?page=3`, `/items?page=3`). `nil` or an empty string ends the pages.
    ///
    /// ```swift
    /// struct BookList: Decodable { let next: String?; let results: [Book] }
    /// client.pages(Books.all(), next: .url { $0.next })
    /// ```
    public static func url(_ link: @escaping @Sendable (Page) -> String?) -> PageLink {
        PageLink { page, url in
            guard let text = link(page.body), !text.isEmpty else { return nil }
            return try resolve(text, against: url)
        }
    }

    /// The next page's URL as the page gives it, decoded as a `URL`; a relative one is resolved
    /// against the page's URL. `nil` ends the pages.
    public static func url(_ link: @escaping @Sendable (Page) -> URL?) -> PageLink {
        PageLink { page, url in
            guard let next = link(page.body) else { return nil }
            return URL(string: next.relativeString, relativeTo: url)?.absoluteURL ?? next
        }
    }

    /// The target of the response's RFC 8288 `Link` header with `rel="next"` (the relation may
    /// be in a list such as `rel="next last"`), resolved against the page's URL.
    public static var linkHeader: PageLink {
        PageLink { page, url in
            guard let header = page.httpResponse.value(forHTTPHeaderField: "Link"),
                  let target = LinkHeader.target(of: "next", in: header)
            else { return nil }
            return try resolve(target, against: url)
        }
    }

    /// Numbered pages: the next page is the current URL with the query item `name` one higher
    /// (a URL without it is page `first`), until `isLast` says the page is the last.
    ///
    /// ```swift
    /// .pageNumber(isLast: { $0.page >= $0.totalPages })
    /// .pageNumber("p", first: 0, isLast: { $0.items.isEmpty })
    /// ```
    public static func pageNumber(_ name: String = "page", first: Int = 1, isLast: @escaping @Sendable (Page) -> Bool) -> PageLink {
        PageLink { page, url in
            guard !isLast(page.body) else { return nil }
            let current = queryValue(name, in: url).flatMap { Int($0) } ?? first
            return try replacingQueryItem(name, with: String(current + 1), in: url)
        }
    }

    /// Offsets: the next page starts `itemCount(page)` items after the current one's offset (the
    /// query item `name`, `0` when absent). It ends on a page with no items, or when `isLast` says so.
    ///
    /// ```swift
    /// .offset(itemCount: { $0.items.count }, isLast: { $0.offset + $0.items.count >= $0.total })
    /// ```
    public static func offset(
        _ name: String = "offset", itemCount: @escaping @Sendable (Page) -> Int,
        isLast: @escaping @Sendable (Page) -> Bool = { _ in false }
    ) -> PageLink {
        PageLink { page, url in
            let count = itemCount(page.body)
            guard count > 0, !isLast(page.body) else { return nil }
            let current = queryValue(name, in: url).flatMap { Int($0) } ?? 0
            return try replacingQueryItem(name, with: String(current + count), in: url)
        }
    }

    /// A token in the query: the next page is the same URL with the query item `name` set to
    /// `token(page)`, percent-encoded (S3's `continuation-token`, many APIs' `cursor`). It ends on a
    /// page whose token is `nil` or empty.
    ///
    /// ```swift
    /// .queryToken("continuation-token") { $0.nextContinuationToken }
    /// .queryToken("cursor") { $0.nextCursor }
    /// ```
    public static func queryToken(_ name: String, _ token: @escaping @Sendable (Page) -> String?) -> PageLink {
        PageLink { page, url in
            guard let value = token(page.body), !value.isEmpty else { return nil }
            return try replacingQueryItem(name, with: value, in: url)
        }
    }

    // MARK: URLs

    private static func resolve(_ link: String, against url: URL) throws -> URL {
        guard let resolved = URL(string: link, relativeTo: url)?.absoluteURL else {
            throw ApiClientError(.unresolvableURL, message: "the page link \(Redaction.urlText(link).debugDescription) is not a URL")
        }
        return resolved
    }

    private static func queryValue(_ name: String, in url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems?.last { $0.name == name }?.value
    }

    /// `url` with every `name` query item removed and `name=value` appended; other items kept as sent.
    private static func replacingQueryItem(_ name: String, with value: String, in url: URL) throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw ApiClientError(.unresolvableURL, message: "the page URL \(Redaction.url(url)) has no query to number")
        }
        let encodedName = PercentEncoding.queryComponent(name)
        var items = (components.percentEncodedQueryItems ?? []).filter { $0.name != encodedName }
        items.append(URLQueryItem(name: encodedName, value: PercentEncoding.queryComponent(value)))
        components.percentEncodedQueryItems = items
        guard let next = components.url else {
            throw ApiClientError(.unresolvableURL, message: "the page URL \(Redaction.url(url)) cannot take \(name)=\(value)")
        }
        return next
    }
}
