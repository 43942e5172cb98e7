import Foundation
import Observation
import SwiftApiDsl
import SwiftApiDslMock
import Testing
#if MAIN_ACTOR_APP
@testable import MainActorApp
#else
@testable import PlainApp
#endif

/// The app's API layer against SwiftApiDslMock, in Swift Testing. `@MainActor` as a screen's
/// code is: the view model is main-actor isolated.
@MainActor @Suite(.timeLimit(.minutes(1)))
struct AppTests {
    let fixture = Fixture()

    @Test func endpointsCarryTheAppsHeadersAndDecode() async throws {
        try fixture.mock.stub(.get, "todos", body: Fixture.todos)
        #expect(try await fixture.service.list() == Fixture.todos)
        let request = try #require(fixture.mock.recordedRequests.first)
        #expect(request.header(.authorization) == "Bearer a1")
        #expect(request.header("X-Api-Version") == "2")
    }

    @Test func theServersErrorDocumentReachesTheApp() async throws {
        fixture.mock.appliesValidators = true
        try fixture.mock.stub(.post, "todos", body: Data(#"{"reason":"title taken"}"#.utf8), statusCode: 422)
        let error = await #expect(throws: RequestError.self) { try await fixture.service.create(title: "Buy milk") }
        #expect(error?.statusCode == 422)
        #expect(TodosService.problem(in: try #require(error)) == "title taken")
    }

    @Test func anExpiredTokenIsRefreshedOnceForTwoRefusedCalls() async throws {
        fixture.mock.stub(.get, "todos") { request in
            request.header(.authorization) == "Bearer a2"
                ? .response(request.urlRequest, body: Fixture.todos)
                : .response(request.urlRequest, statusCode: 401)
        }
        try fixture.mock.stub(.post, "token/refresh", body: TokenPair(access: "a2", refresh: "r2"))
        let service = fixture.service
        async let first = service.list()
        async let second = service.list()
        #expect(try await [first, second] == [Fixture.todos, Fixture.todos])
        let (refreshes, tokens) = (await fixture.tokens.refreshCount, await fixture.tokens.tokens)
        #expect(refreshes == 1)
        #expect(tokens == TokenPair(access: "a2", refresh: "r2"))
        let refresh = try #require(fixture.mock.recordedRequests(method: .post, path: "token/refresh").first)
        #expect(refresh.bodyText == #"{"refresh":"r1"}"#)
        #expect(refresh.header(.authorization) == nil)
    }

    @Test func searchFollowsNextLinksThroughEveryPage() async throws {
        fixture.mock.stub(.get, "todos/search") { request in
            let second = request.queryItems.contains(URLQueryItem(name: "page", value: "2"))
            let page = second
                ? TodoPage(results: [Fixture.todos[1]], next: nil)
                : TodoPage(results: [Fixture.todos[0]], next: URL(string: "https://example.com/api/todos/search?page=2"))
            return .response(request.urlRequest, body: page)
        }
        #expect(try await fixture.service.search("a") == Fixture.todos)
        #expect(fixture.mock.recordedRequests.count == 2)
    }

    @Test func theViewModelFollowsTheSharedResource() async throws {
        try fixture.mock.stub(.get, "todos", body: Fixture.todos)
        let model = TodosViewModel(client: fixture.client)
        let observing = Task { await model.observe() }
        defer { observing.cancel() }
        await changeOf({ model.todos }, after: { _ = try? await model.resource.reload() })
        #expect(model.todos == Fixture.todos)
        #expect(model.isLoading == false)
        await model.load() // answered from memory: no second request
        #expect(fixture.mock.recordedRequests.count == 1)
    }

    @Test func streamedEventsReachTheViewModelInOrder() async throws {
        let events = Data("event: added\ndata: 1\n\ndata: hello\n\n".utf8)
        try fixture.mock.stub(.get, "events", body: events, headers: ["Content-Type": "text/event-stream"])
        let model = TodosViewModel(client: fixture.client)
        try await Task { try await model.listen() }.value
        #expect(model.events == ["added: 1", "message: hello"])
    }

    @Test func aDownloadReportsItsProgressToTheViewModel() async throws {
        let bytes = Data(repeating: 7, count: 4096)
        try fixture.mock.stub(.get, "export", body: bytes)
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        let model = TodosViewModel(client: fixture.client)
        try await model.download(to: destination)
        #expect(try Data(contentsOf: destination) == bytes)
        // The progress handler's last hop reaches the model: only the handler sets the property.
        while model.downloadProgress < 1 { await changeOf({ model.downloadProgress }) {} }
        #expect(model.downloadProgress == 1)
    }

    @Test func aScanIsUploadedAsMultipart() async throws {
        try fixture.mock.stub(.post, "documents", body: Receipt(id: "r-1"))
        #expect(try await fixture.service.upload(scan: Data("%PDF".utf8), note: "front") == Receipt(id: "r-1"))
        let form = try #require(fixture.mock.recordedRequests.first?.multipartFormData)
        #expect(form.parts.map(\.name) == ["type", "file", "note"])
    }

    @Test func theGenericHelpersSendTheirPayloadAsJSON() async throws {
        fixture.mock.stub(.post, "drafts", statusCode: 201)
        fixture.mock.stub(.put, "drafts/1")
        try await fixture.service.postData(endpoint: "drafts", payload: NewTodo(title: "a"))
        try await fixture.service.putData(endpoint: "drafts/1", payload: NewTodo(title: "b"))
        let bodies = try fixture.mock.recordedRequests.map { try $0.decodedBody(as: NewTodo.self) }
        #expect(bodies == [NewTodo(title: "a"), NewTodo(title: "b")])
    }

    @Test func theDSLExtensionWorksFromAnActor() async throws {
        try fixture.mock.stub(.get, "todos", body: Fixture.todos)
        #expect(try await SyncWorker(client: fixture.client).pull() == Fixture.todos)
        #expect(fixture.mock.recordedRequests.first?.header("X-Api-Version") == "3")
    }
}

/// Waits for `read`'s value to change after `action`, through Observation (no polling).
@MainActor
func changeOf<T>(_ read: () -> T, after action: () async -> Void) async {
    let changed = AsyncStream<Void> { continuation in
        withObservationTracking { _ = read() } onChange: { continuation.yield(); continuation.finish() }
    }
    await action()
    for await _ in changed { break }
}
