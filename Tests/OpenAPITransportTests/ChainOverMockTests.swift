#if OpenAPI && AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslCache
import SwiftApiDslMock
import SwiftApiDslOpenAPI

/// A generated-style client over `ApiClientTransport` on an `ApiClientMock`: stubs and
/// recordings as for the client's own calls, and every step of the chain.
@Suite struct ChainOverMockTests {
    typealias Todo = TodosAPI.Todo

    static let baseUrl = URL(string: "https://api.example.com/v1")!

    /// A counter shared with `@Sendable` closures.
    final class Counter: Sendable {
        private let value = Shared(0)
        func next() -> Int { value.withLock { $0 += 1; return $0 } }
        var count: Int { value.withLock { $0 } }
    }

    @Test func stubsAnswerByMethodAndPathAndRecordingsKeepWhatWasSent() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        try mock.stub(.get, "todos/:id", body: Todo(id: 7, title: "Buy milk"))
        try mock.stub(.post, "todos", body: Todo(id: 8, title: "Walk"), statusCode: 200)
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(mock))

        #expect(try await api.getTodo(id: 7) == .ok(Todo(id: 7, title: "Buy milk")))
        #expect(try await api.createTodo(.init(title: "Walk")) == .ok(Todo(id: 8, title: "Walk")))

        let post = try #require(mock.recordedRequests(method: .post, path: "todos").first)
        #expect(try post.decodedBody(as: TodosAPI.NewTodo.self) == .init(title: "Walk"))
        #expect(post.header(.contentType) == "application/json; charset=utf-8")
        let get = try #require(mock.recordedRequests(method: .get, path: "todos/7").first)
        #expect(get.pathParameters == ["id": "7"])
        #expect(get.header(.accept) == "application/json")
    }

    @Test func aStreamedRequestBodyIsRecordedAsTheBytesItGave() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(mock))
        let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
            for piece in ["one ", "two ", "three"] { continuation.yield(ArraySlice(piece.utf8)) }
            continuation.finish()
        }
        let request = HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/uploads/1")
        _ = try await api.raw(request, body: HTTPBody(chunks, length: .unknown, iterationBehavior: .single))
        #expect(mock.recordedRequests(method: .put, path: "uploads/1").map(\.bodyText) == ["one two three"])
    }

    @Test func theClientsModifiersAndAuthenticationRunForEveryOperation() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        try mock.stub(.get, "todos/:id", body: Todo(id: 1, title: "ok"))
        let client = mock.client.header("X-App", "todos/1.0").bearer("abc")
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(client))
        _ = try await api.getTodo(id: 1)
        let sent = try #require(mock.recordedRequests.first)
        #expect(sent.header(.authorization) == "Bearer abc")
        #expect(sent.headers["X-App"] == "todos/1.0")
    }

    @Test func aRefusedTokenIsRefreshedOnceForConcurrentOperations() async throws {
        let refreshes = Counter()
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        mock.stub(.get, "todos/:id") { request in
            request.header(.authorization) == "Bearer fresh"
                ? .response(request.urlRequest, body: Todo(id: 1, title: "ok"))
                : .response(request.urlRequest, statusCode: 401)
        }
        let client = mock.client.authentication(token: { "stale" }, refresh: { _ in
            _ = refreshes.next()
            try await Task.sleep(nanoseconds: 50_000_000) // the other operations are refused meanwhile
            return "fresh"
        })
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(client))
        let answers = try await withThrowingTaskGroup(of: TodosAPI.Output<Todo>.self) { group in
            for _ in 0..<8 { group.addTask { try await api.getTodo(id: 1) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == Array(repeating: .ok(Todo(id: 1, title: "ok")), count: 8))
        #expect(refreshes.count == 1)
        let sent = mock.recordedRequests.map { $0.header(.authorization) ?? "" }
        #expect(sent.filter { $0 == "Bearer stale" }.count == 8)
        #expect(sent.filter { $0 == "Bearer fresh" }.count == 8)
    }

    @Test func aRetryAfterAnswerIsRetriedAfterTheServersDelay() async throws {
        let attempts = Counter()
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        mock.stub(.get, "todos/:id") { request in
            attempts.next() == 1
                ? .response(request.urlRequest, statusCode: 503, headers: ["Retry-After": "1"])
                : .response(request.urlRequest, body: Todo(id: 2, title: "back"))
        }
        let client = mock.client.retryPolicy(RetryPolicy(maxAttempts: 2, initialDelay: 0, jitter: 0))
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(client))
        let start = Date()
        #expect(try await api.getTodo(id: 2) == .ok(Todo(id: 2, title: "back")))
        #expect(Date().timeIntervalSince(start) >= 0.95)
        #expect(attempts.count == 2)
    }

    @Test func aRedirectIsFollowedToTheAnswer() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        mock.stub(.get, "todos/3") { request in
            .response(request.urlRequest, statusCode: 301, headers: ["Location": "https://api.example.com/v1/todos/30"])
        }
        try mock.stub(.get, "todos/30", body: Todo(id: 30, title: "moved"))
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(mock))
        #expect(try await api.getTodo(id: 3) == .ok(Todo(id: 30, title: "moved")))
        #expect(mock.recordedRequests.map(\.path) == ["todos/3", "todos/30"])
    }

    @Test func aFreshCachedAnswerIsServedWithoutTheNetwork() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        // A generated operation's body arrives as a stream: the cache stores it when its length is announced.
        let body = try JSONEncoder().encode(Todo(id: 4, title: "cached"))
        try mock.stub(.get, "todos/:id", body: body, headers: ["Cache-Control": "max-age=60", "Content-Length": "\(body.count)"])
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(mock.client.cache(.memory())))
        #expect(try await api.getTodo(id: 4) == .ok(Todo(id: 4, title: "cached")))
        #expect(try await api.getTodo(id: 4) == .ok(Todo(id: 4, title: "cached")))
        #expect(mock.recordedRequests.count == 1)
    }

    @Test func middlewaresAndObserversSeeTheOperationID() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        try mock.stub(.get, "todos/:id", body: Todo(id: 1, title: "ok"))
        let seen = Shared<[String]>([])
        let client = mock.client
            .middleware(Middleware("names") { request, next in
                seen.withLock { $0.append("middleware \(request.name ?? "-")") }
                return try await next(request)
            })
            .observer { event in
                switch event.kind {
                case .prepared(let request): seen.withLock { $0.append("prepared \(request.name ?? "-")") }
                case .finished(let metrics): seen.withLock { $0.append("finished \(metrics.request?.name ?? "-")") }
                default: break
                }
            }
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(client))
        _ = try await api.getTodo(id: 1)
        #expect(seen.withLock { $0 } == ["prepared getTodo", "middleware getTodo", "finished getTodo"])
    }

    @Test func byDefaultTheGeneratedCodeDecidesWhatAStatusMeans() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        try mock.stub(.get, "todos/:id", body: ["detail": "no such todo"], statusCode: 404)
        mock.appliesValidators = true
        let client = mock.client.httpStatusCodeRange()
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(client))
        #expect(try await api.getTodo(id: 9) == .undocumented(statusCode: 404, body: #"{"detail":"no such todo"}"#))
    }

    /// Without validators nothing reads an error document ahead: a large one reaches the
    /// generated code whole, as it arrives.
    @Test func aLargeUndocumentedBodyReachesTheGeneratedCodeWhole() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        let document = Data(repeating: UInt8(ascii: "e"), count: 3 << 20)
        try mock.stub(.get, "report", body: document, statusCode: 500)
        let transport = ApiClientTransport(mock.client.httpStatusCodeRange())
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/report")
        let (response, body) = try await transport.send(request, body: nil, baseURL: Self.baseUrl, operationID: "report")
        #expect(response.status.code == 500)
        #expect(try await Data(collecting: try #require(body), upTo: 4 << 20) == document)
    }

    @Test func withTheClientsValidationARejectionIsTheGeneratedClientsUnderlyingError() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        try mock.stub(.get, "todos/:id", body: ["detail": "no such todo"], statusCode: 404)
        mock.appliesValidators = true
        let client = mock.client.httpStatusCodeRange()
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(client, validation: .client))
        let error = try await #require(throws: ClientError.self) { try await api.getTodo(id: 9) }
        #expect(error.operationID == "getTodo")
        let requestError = try #require(error.underlyingError as? RequestError)
        guard case .validate(_, let data, let response, let cause) = requestError else {
            Issue.record("expected .validate, got \(requestError)")
            return
        }
        #expect(response.statusCode == 404)
        #expect(String(decoding: data, as: UTF8.self) == #"{"detail":"no such todo"}"#)
        #expect((cause as? ApiClientError)?.code == .unacceptableStatusCode)
    }

    enum AppError: Error, Equatable { case notFound, other }

    @Test func mapErrorTurnsTheUnderlyingErrorIntoTheAppsOwn() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        try mock.stub(.get, "todos/:id", body: ["detail": "no such todo"], statusCode: 404)
        mock.appliesValidators = true
        let client = mock.client.httpStatusCodeRange().mapError { error in
            error.validationError.flatMap { ($0 as? ApiClientError)?.statusCode } == 404 ? AppError.notFound : AppError.other
        }
        let validated = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(client, validation: .client))
        let error = try await #require(throws: ClientError.self) { try await validated.getTodo(id: 9) }
        #expect(error.underlyingError as? AppError == .notFound)
        // Without the client's validation nothing failed: there is nothing to map.
        let generated = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(client))
        #expect(try await generated.getTodo(id: 9) == .undocumented(statusCode: 404, body: #"{"detail":"no such todo"}"#))
    }

    @Test func aTransportFailureIsWrappedByTheGeneratedClientWithTheRequestError() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        mock.stub(.get, "todos/:id") { request in .failure(.transport(request.urlRequest, URLError(.notConnectedToInternet))) }
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(mock))
        let error = try await #require(throws: ClientError.self) { try await api.getTodo(id: 5) }
        #expect(error.operationID == "getTodo")
        let requestError = try #require(error.underlyingError as? RequestError)
        guard case .transport(let request, let cause) = requestError else {
            Issue.record("expected .transport, got \(requestError)")
            return
        }
        #expect(request.url?.absoluteString == "https://api.example.com/v1/todos/5")
        #expect((cause as? URLError)?.code == .notConnectedToInternet)
    }

    @Test func aBodyThatCanBeSentOnceIsNotSentAgainByARetry() async throws {
        let mock = ApiClientMock(baseUrl: Self.baseUrl)
        mock.stub(.put, "uploads/:id") { request in .response(request.urlRequest, statusCode: 503) }
        let client = mock.client.retryPolicy(RetryPolicy(maxAttempts: 3, initialDelay: 0, jitter: 0))
        let api = TodosAPI(serverURL: Self.baseUrl, transport: ApiClientTransport(client))
        let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
            continuation.yield(ArraySlice("once".utf8))
            continuation.finish()
        }
        let request = HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/uploads/1")
        let error = try await #require(throws: ClientError.self) {
            try await api.raw(request, body: HTTPBody(chunks, length: .unknown, iterationBehavior: .single))
        }
        let requestError = try #require(error.underlyingError as? RequestError)
        #expect(Self.codes(in: requestError).contains(.streamedBodyUnreadable))
        #expect(mock.recordedRequests.map(\.bodyText) == ["once"])
    }

    /// The codes of the `ApiClientError`s inside `error`, outermost first.
    static func codes(in error: RequestError) -> [ApiClientError.Code] {
        var codes: [ApiClientError.Code] = []
        var cause: (any Error)? = error.underlyingError
        while let current = cause as? ApiClientError {
            codes.append(current.code)
            cause = current.underlyingError
        }
        return codes
    }
}
#endif
