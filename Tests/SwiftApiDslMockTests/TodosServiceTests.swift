import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// A consumer's tests: `TodosService` is written against `ApiClient` and receives the mock's client.
@Suite struct TodosServiceTests {
    let mock = TodosApi.client(baseUrl: Fixtures.baseUrl, token: "abc").mocked()
    var service: TodosService { TodosService(client: mock.client) }

    init() {
        mock.isStrict = true
    }

    @Test func listDecodesSnakeCaseTodos() async throws {
        try mock.stub(.get, "todos", body: [Fixtures.todo])
        #expect(try await service.list() == [Fixtures.todo])
        #expect(mock.recordedRequests.map(\.description) == ["GET https://example.com/api/todos"])
    }

    @Test func createPostsExactlyOneAuthenticatedJsonDraft() async throws {
        try mock.stub(.post, "todos", body: Fixtures.todo, statusCode: 201)

        let created = try await service.create(title: "Buy milk")

        #expect(created == Fixtures.todo)
        let posts = mock.recordedRequests(method: .post, path: "todos")
        #expect(posts.count == 1)
        #expect(mock.recordedRequests.count == 1)
        let post = try #require(posts.first)
        #expect(post.header(.authorization) == "Bearer abc")
        #expect(post.bodyText == #"{"is_done":false,"title":"Buy milk"}"#)
        #expect(try post.decodedBody(as: TodoDraft.self) == TodoDraft(title: "Buy milk", isDone: false))
    }

    @Test func updatePutsTheDraftToTheTodosPath() async throws {
        mock.stub(.put, "todos/:id") { request in
            guard let id = Int(request.pathParameters["id"] ?? ""), id == Fixtures.todo.id else {
                return .response(request.urlRequest, statusCode: 404)
            }
            var todo = Fixtures.todo
            todo.isDone = try request.decodedBody(as: TodoDraft.self).isDone
            return .response(request.urlRequest, body: todo, jsonEncoder: Self.snakeCaseEncoder)
        }
        var done = Fixtures.todo
        done.isDone = true

        #expect(try await service.update(done) == done)
        #expect(mock.recordedRequests(method: .put, path: "todos/7").count == 1)
    }

    @Test func updateOfAMissingTodoFailsValidationWhenValidatorsApply() async throws {
        mock.appliesValidators = true
        mock.stub(.put, "todos/:id", statusCode: 404)
        let error = await #expect(throws: RequestError.self) {
            _ = try await service.update(Todo(id: 99, title: "Ghost", isDone: false, createdAt: Date(timeIntervalSince1970: 0)))
        }
        #expect(error?.httpResponse?.statusCode == 404)
        let rejection = error?.validationError as? ApiClientError
        #expect(rejection?.statusCode == 404)
        #expect(rejection?.acceptableStatusCodes == 200..<300)
    }

    @Test func deleteSendsOneDeleteAndAcceptsA204() async throws {
        mock.stub(.delete, "todos/:id", statusCode: 204)
        try await service.delete(id: 7)
        #expect(mock.recordedRequests(method: .delete).map(\.path) == ["todos/7"])
    }

    @Test func unexpectedCallFailsInStrictMode() async throws {
        let error = await #expect(throws: RequestError.self) { try await service.delete(id: 7) }
        #expect(error?.underlyingError is UnmatchedRequestError)
    }

    @Test func transportFailureReachesTheService() async throws {
        mock.stub(.get, "todos") { .failure(.transport($0.urlRequest, URLError(.notConnectedToInternet))) }
        let error = await #expect(throws: RequestError.self) { _ = try await service.list() }
        #expect((error?.underlyingError as? URLError)?.code == .notConnectedToInternet)
    }

    static let snakeCaseEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()
}
