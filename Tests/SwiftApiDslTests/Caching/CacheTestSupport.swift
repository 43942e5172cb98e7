import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl
@testable import SwiftApiDslCache

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_700_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// `date` as an IMF-fixdate, e.g. `Tue, 14 Nov 2023 22:13:20 GMT`.
func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
}

/// A server for cache tests: answers each request with what `answer` returns for it and the
/// number of requests so far (1 for the first), and records the requests.
final class CountingServer: HTTPTransport {
    typealias Answer = @Sendable (TransportRequest, Int) -> (status: Int, headers: [String: String], body: ResponseBody)

    private let received = Locked<[TransportRequest]>([])
    private let answer: Answer

    init(_ answer: @escaping Answer) {
        self.answer = answer
    }

    /// A server that answers every request with `body` and `headers`, status 200, and a `304`
    /// (same headers, no body) to a request whose `If-None-Match` is the `ETag` in `headers`.
    convenience init(body: String = "payload", headers: [String: String]) {
        self.init { request, _ in
            if let etag = headers["ETag"], request.headerFields["If-None-Match"] == etag {
                return (304, headers, .empty)
            }
            return (200, headers, ResponseBody(Data(body.utf8)))
        }
    }

    var requests: [TransportRequest] { received.withLock { $0 } }

    func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
        let count = received.withLock { requests in
            requests.append(request)
            return requests.count
        }
        let (status, headers, body) = answer(request, count)
        return TransportResponse(statusCode: status, headerFields: HeaderFields(headers.sorted { $0.key < $1.key }.map { .init(name: $0.key, value: $0.value) }),
                                 body: body)
    }
}

/// A body that delivers `prefix` and then fails, as a connection cut mid-body does.
func cutBody(after prefix: String) -> ResponseBody {
    ResponseBody(AsyncThrowingStream<Data, Error> { continuation in
        continuation.yield(Data(prefix.utf8))
        continuation.finish(throwing: URLError(.networkConnectionLost))
    })
}

extension ApiClient {
    /// A client on `server` based at https://api.example.com/v1, with a memory cache on `clock`.
    static func cached(_ server: CountingServer, clock: TestClock, limit: Int = 1 << 20) -> (ApiClient, HTTPCache) {
        let cache = HTTPCache(store: MemoryCacheStore(limit: limit), now: { clock.now })
        return (ApiClient(transport: server, baseUrl: exampleBase).cache(cache), cache)
    }
}
