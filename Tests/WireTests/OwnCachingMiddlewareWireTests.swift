import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl // and nothing else: the public seams a user's middleware has

/// A caching middleware a user writes on the public seams alone, as `SwiftApiDslCache` is
/// written: it keys on the cookies the transport adds, collects bodies with a tap, and says
/// where its answers come from.
@Suite struct OwnCachingMiddlewareWireTests {
    /// Keeps whole `200` bodies by URL and the cookies the engine sends; answers from them after.
    final class TinyCache: @unchecked Sendable {
        private let lock = NSLock()
        private var bodies: [String: Data] = [:]

        var middleware: Middleware {
            Middleware("tiny-cache", seeingCall: { request, next, call in
                guard request.method == .get, let url = request.url else { return try await next(request) }
                let key = url.absoluteString + "\n" + (call.transport.cookieField(for: url) ?? "")
                if let body = self.lock.withLock({ self.bodies[key] }) {
                    var hit = TransportResponse(statusCode: 200, headerFields: ["Content-Type": "application/json"], body: ResponseBody(body))
                    hit.source = .stored
                    hit.sentRequest = request
                    return hit
                }
                var response = try await next(request)
                guard response.statusCode == 200, (response.headerFields.expectedBodyLength ?? 0) < 1 << 20 else { return response }
                let collected = Collected()
                response.body = response.body.tapped({ collected.append($0) }, onEnd: { whole in
                    if whole { self.lock.withLock { self.bodies[key] = collected.data } }
                })
                return response
            })
        }
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        func append(_ chunk: Data) { lock.withLock { bytes.append(chunk) } }
        var data: Data { lock.withLock { bytes } }
    }

    @Test func itKeysOnTheTransportsCookiesAndSaysWhereAnAnswerCameFrom() async throws {
        let sessions = try CookieSessions()
        let sources = Sources()
        let client = ApiClient(transport: URLSessionTransport(configuration: sessions.configuration), baseUrl: sessions.base)
            .middleware(TinyCache().middleware)
            .observer { event in if case .finished(let metrics) = event.kind { sources.append(metrics.source) } }
        let path = "cache/\(UUID().uuidString)/doc"
        let answers = try await sessions.adaBobAda { try await client.get(path).perform() }

        let answered: [ResponseSource] = answers.map(\.source)
        let requests: [Int] = answers.map(\.body.requests)
        let observed: [ResponseSource] = sources.all
        #expect(answered == [.network, .network, .stored])
        #expect(requests == [1, 2, 1])
        #expect(observed == [.network, .network, .stored])
    }

    final class Sources: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [ResponseSource] = []
        func append(_ source: ResponseSource) { lock.withLock { seen.append(source) } }
        var all: [ResponseSource] { lock.withLock { seen } }
    }
}
