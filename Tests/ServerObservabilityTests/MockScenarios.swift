#if ServerObservability && AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock

// The answers several suites need: each suite checks what its integration makes of them.

extension ApiClientMock {
    /// `path` answers `503` the first time (a status the default retry policy retries), then `200`.
    func stubFailingOnce(_ path: String, headers: [String: String] = [:]) {
        let answered = Counter()
        stub(.get, path) { request in
            .response(request.urlRequest, statusCode: answered.next() == 1 ? 503 : 200, headers: headers)
        }
    }

    /// A client whose token `GET path` refuses (`401`) until `refresh` has run once; `refresh`
    /// may send a call of its own.
    func clientRenewingItsToken(at path: String, refresh: @escaping @Sendable () async throws -> Void = {}) -> ApiClient {
        stub(.get, path) { request in
            let fresh = request.urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer new"
            return .response(request.urlRequest, statusCode: fresh ? 200 : 401)
        }
        let refreshed = Counter()
        return client.authentication(token: { refreshed.count == 0 ? "old" : "new" }, refresh: { _ in
            try await refresh()
            _ = refreshed.next()
            return "new"
        })
    }
}

extension RetryPolicy {
    /// Three attempts without waiting between them.
    static let immediate = RetryPolicy(maxAttempts: 3, initialDelay: 0, jitter: 0)
}

/// Counts calls from any task.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
#endif
