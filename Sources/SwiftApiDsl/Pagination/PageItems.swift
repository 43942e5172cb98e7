/// The items of every page, in order; made by ``Pages/items(_:)``.
///
/// Pages load off the caller's actor; the function that picks a page's items runs in the
/// iterating task's isolation (it need not be `@Sendable`), so the sequence itself is not
/// `Sendable`: iterate it where it was made. It is its own iterator: ``makeAsyncIterator()``
/// hands out a copy that starts at the first page.
public struct PageItems<Page, Item>: AsyncSequence, AsyncIteratorProtocol {
    /// Each item of each page.
    public typealias Element = Item

    var pages: Pages<Page>
    let items: (Page) -> [Item]
    /// The current page's items, and the index of the next one to hand out.
    var buffered: [Item] = []
    var index = 0

    /// The items from the first page's, loaded as they are asked for.
    public func makeAsyncIterator() -> PageItems {
        PageItems(pages: pages.makeAsyncIterator(), items: items)
    }

    /// Every item of every page, loaded to the end, in the caller's isolation.
    public func collect(isolation: isolated (any Actor)? = #isolation) async throws -> [Item] {
        var all: [Item] = []
        var iterator = makeAsyncIterator()
        while let item = try await iterator.next(isolation: isolation) { all.append(item) }
        return all
    }

    /// The next item, loading the next page when the current one's run out; `items` runs in
    /// `isolation`, the iterating task's (what `for try await` passes).
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
