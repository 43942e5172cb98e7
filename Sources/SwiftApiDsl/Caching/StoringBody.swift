import Foundation

/// A response body that passes its chunks on as they come and, once it has been read to its
/// end, hands the whole of it to `store`: only a complete body is stored. A body that fails
/// mid-way, is not read to the end, grows past `limit`, or does not have its announced length
/// is not.
struct StoringBody: AsyncSequence, Sendable {
    typealias Element = Data

    private let base: ResponseBody
    private let expectedLength: Int64?
    private let limit: Int
    private let store: @Sendable (Data) -> Void

    init(_ base: ResponseBody, expectedLength: Int64?, limit: Int, store: @escaping @Sendable (Data) -> Void) {
        self.base = base
        self.expectedLength = expectedLength
        self.limit = limit
        self.store = store
    }

    /// As a ``ResponseBody``.
    var body: ResponseBody { ResponseBody(self) }

    func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), owner: self)
    }

    struct Iterator: AsyncIteratorProtocol {
        fileprivate var base: ResponseBody.Iterator
        fileprivate let owner: StoringBody
        /// What arrived so far; `nil` once the body can no longer be stored.
        private var collected: Data? = Data()

        fileprivate init(base: ResponseBody.Iterator, owner: StoringBody) {
            self.base = base
            self.owner = owner
        }

        mutating func next() async throws -> Data? {
            guard let chunk = try await base.next() else {
                if let body = collected, owner.expectedLength.map({ $0 == Int64(body.count) }) ?? true { owner.store(body) }
                collected = nil
                return nil
            }
            if let count = collected?.count {
                if count + chunk.count <= owner.limit { collected?.append(chunk) } else { collected = nil }
            }
            return chunk
        }
    }
}
