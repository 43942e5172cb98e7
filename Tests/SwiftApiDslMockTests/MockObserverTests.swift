import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// A client's observers keep working when it is mocked, so an app's logging can be tested.
@Suite struct MockObserverTests {
    final class StatusLog: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        var lines: [String] { lock.withLock { entries } }

        func observe(_ event: RequestEvent) {
            switch event.kind {
            case .responseHead(let statusCode, _, _): lock.withLock { entries.append("head \(statusCode)") }
            case .finished(let metrics): lock.withLock { entries.append("finished \(metrics.statusCode ?? 0) \(metrics.bytesReceived)") }
            default: break
            }
        }
    }

    @Test func observersSeeStubbedAnswers() async throws {
        let log = StatusLog()
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).observer(log.observe).mocked()
        try mock.stub(.get, "todos/1", body: ["id": 1], statusCode: 201)
        try await mock.get("todos/1").perform()
        #expect(log.lines == ["head 201", "finished 201 8"])
    }

    /// A middleware finds the call its request belongs to by `requestID`: the observers' id, on
    /// every request of the call on the wire (the first, a redirect hop, a retry, which starts
    /// from the first request again), and a new one for the next call; none without observers.
    @Test func everyRequestOnTheWireCarriesTheObservedCallsId() async throws {
        final class Prepared: Sendable {
            let ids = Locked<[Int]>([])
            func observe(_ event: RequestEvent) {
                if case .prepared = event.kind { ids.withLock { $0.append(event.requestID) } }
            }
        }
        let prepared = Prepared()
        let seen = Locked<[String]>([])
        let hops = Locked(0)
        let mock = ApiClient(baseUrl: Fixtures.baseUrl)
            .retryPolicy(RetryPolicy(maxAttempts: 2, initialDelay: 0, jitter: 0))
            .observer(prepared.observe)
            .middleware(Middleware("wire", seeingCall: { request, next, call in
                let hop = hops.withLock { $0 += 1; return $0 }
                seen.withLock { $0.append("\(request.url?.path ?? "") \(call.requestID.map(String.init) ?? "none")") }
                switch hop {
                case 1: return TransportResponse(statusCode: 302, headerFields: ["Location": "/api/moved"])
                case 2: return TransportResponse(statusCode: 503)
                default: return try await next(request)
                }
            }))
            .mocked()
        try await mock.get("todos").perform()
        try await mock.get("todos").perform()
        let ids = prepared.ids.withLock { $0 }
        #expect(ids.count == 2 && ids[0] != ids[1])
        #expect(seen.withLock { $0 } == ["/api/todos \(ids[0])", "/api/moved \(ids[0])", "/api/todos \(ids[0])", "/api/todos \(ids[1])"])
        let unobserved = Locked<[Int?]>([])
        let plain = ApiClient(baseUrl: Fixtures.baseUrl)
            .middleware(Middleware("wire", seeingCall: { request, next, call in
                unobserved.withLock { $0.append(call.requestID) }
                return try await next(request)
            }))
            .mocked()
        try await plain.get("todos").perform()
        #expect(unobserved.withLock { $0 } == [nil])
    }

    /// A middleware of the user's own gets the hint the built-in cache uses, with no cache in the
    /// chain: whether the call takes the body as it arrives (a download, a stream) or into memory.
    @Test func everyMiddlewareSeesWhetherTheCallTakesTheBodyAsItArrives() async throws {
        let seen = Locked<[Bool]>([])
        let mock = ApiClient(baseUrl: Fixtures.baseUrl)
            .middleware(Middleware("hint", seeingCall: { request, next, call in
                seen.withLock { $0.append(call.takesBodyAsItArrives) }
                return try await next(request)
            }))
            .mocked()
        try mock.stub(.get, "file", body: Data("bytes".utf8))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await mock.get("file").perform()
        try await mock.get("file").download(destination: folder.appendingPathComponent("file"))
        _ = try await mock.get("file").stream()
        #expect(seen.withLock { $0 } == [false, true, true])
    }

    /// What belongs to the call is not in the request, so a middleware that sends a request of its
    /// own making (here rebuilt from its `URLRequest`) cannot drop it for the layers after it.
    @Test func aRequestRebuiltByAMiddlewareKeepsTheCallsIdAndHowItTakesTheBody() async throws {
        let seen = Locked<[String]>([])
        let mock = ApiClient(baseUrl: Fixtures.baseUrl)
            .observer { _ in }
            .middleware(Middleware("rebuild") { request, next in try await next(TransportRequest(urlRequest: request.urlRequest)) })
            .middleware(Middleware("inner", seeingCall: { request, next, call in
                seen.withLock { $0.append("\(call.requestID != nil) \(call.takesBodyAsItArrives)") }
                return try await next(request)
            }))
            .mocked()
        try mock.stub(.get, "file", body: Data("bytes".utf8))
        let response = try await mock.get("file").stream()
        for try await _ in response.body {}
        #expect(seen.withLock { $0 } == ["true true"])
    }
}
