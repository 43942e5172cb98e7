import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing
import TodoApi

/// Seed 000's to-do API, tested with the mock as an app would.
@Suite struct TodoApiTests {
    let mock: ApiClientMock = {
        let mock = Todos.client(baseUrl: URL(string: "http://localhost:8080")!).mocked()
        mock.appliesValidators = true
        return mock
    }()

    @Test func listsTodosDecodingSnakeCase() async throws {
        mock.stub(.get, "todos") { .response($0.urlRequest, body: Data(#"[{"id":1,"title":"Learn Swift","completed":false}]"#.utf8)) }
        #expect(try await mock.perform(Todos.all()) == [Todo(id: 1, title: "Learn Swift", completed: false)])
    }

    @Test func createsUpdatesAndDeletes() async throws {
        try mock.stub(.post, "todos", body: Todo(id: 1, title: "Learn Swift", completed: false), statusCode: 201)
        try mock.stub(.put, "todos/:id", body: Todo(id: 1, title: "Learn SwiftUI", completed: true))
        mock.stub(.delete, "todos/:id", statusCode: 204)

        let created = try await mock.perform(Todos.create(NewTodo(title: "Learn Swift")))
        let updated = try await mock.perform(Todos.update(Todo(id: created.id, title: "Learn SwiftUI", completed: true)))
        try await mock.perform(Todos.delete(id: updated.id))

        #expect(mock.recordedRequests.map(\.description) == [
            "POST http://localhost:8080/todos", "PUT http://localhost:8080/todos/1", "DELETE http://localhost:8080/todos/1",
        ])
        #expect(try mock.recordedRequests[0].decodedBody(as: NewTodo.self) == NewTodo(title: "Learn Swift"))
        #expect(updated.completed)
    }

    @Test func statusCodesReplaceTheSeedsErrorEnum() async throws {
        mock.stub(.get, "todos", statusCode: 404)
        let error = await #expect(throws: RequestError.self) { try await mock.perform(Todos.all()) }
        #expect(error?.statusCode == 404)
    }

    @Test func urlRequestIsInspectableWithoutAServer() async throws {
        let request = try await mock.urlRequest(for: Todos.update(Todo(id: 3, title: "t", completed: false)))
        #expect(request.httpMethod == "PUT")
        #expect(request.url?.absoluteString == "http://localhost:8080/todos/3")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }
}

/// The to-do list shared by every screen: one request, however many ask.
@Suite struct TodoResourceTests {
    @Test func screensShareOneLoadOfTheList() async throws {
        let mock = Todos.client(baseUrl: URL(string: "http://localhost:8080")!).mocked()
        try mock.stub(.get, "todos", body: [Todo(id: 1, title: "Learn Swift", completed: false)])
        let list = mock.resource(Todos.all())
        async let first = list.value()
        async let second = list.value()
        #expect(try await first == second)
        #expect(list.latestValue?.map(\.title) == ["Learn Swift"])
        #expect(mock.recordedRequests.count == 1)
    }
}

/// Seed 000's own calls and `ApiError`, written once on the client with `mapError`.
@Suite struct TodoAppSurfaceTests {
    @Test func theSeedsCallsReadAsTheyDid() async throws {
        let mock = Todos.client(baseUrl: URL(string: "http://localhost:8080")!).mocked()
        let api = Api(client: mock.client)
        mock.stub(.get, "todos") { .response($0.urlRequest, body: Data(#"[{"id":1,"title":"Learn Swift","completed":false}]"#.utf8)) }
        try mock.stub(.post, "todos", body: Todo(id: 2, title: "Ship", completed: false), statusCode: 201)
        try mock.stub(.put, "todos/:id", body: Todo(id: 2, title: "Ship", completed: true))
        mock.stub(.delete, "todos/:id", statusCode: 204)

        let todos: [Todo] = try await api.getData(endpoint: "/todos")
        let created: Todo = try await api.postData(endpoint: "/todos", payload: NewTodo(title: "Ship"))
        let updated: Todo = try await api.putData(endpoint: "/todos/2", payload: Todo(id: 2, title: "Ship", completed: true))
        try await api.deleteData(endpoint: "/todos/2")

        #expect(todos == [Todo(id: 1, title: "Learn Swift", completed: false)])
        #expect(created.id == 2 && updated.completed)
        #expect(mock.recordedRequests.map(\.description) == [
            "GET http://localhost:8080/todos", "POST http://localhost:8080/todos",
            "PUT http://localhost:8080/todos/2", "DELETE http://localhost:8080/todos/2",
        ])
    }

    @Test(arguments: [(400, ApiError.badRequest), (404, .notFound), (500, .serverError), (503, .serverError)])
    func everyStatusBecomesTheAppsError(status: Int, expected: ApiError) async throws {
        let mock = Todos.client(baseUrl: URL(string: "http://localhost:8080")!).mocked()
        mock.appliesValidators = true
        mock.stub(.get, "todos/1", statusCode: status)
        await #expect(throws: expected) { let _: Todo = try await Api(client: mock.client).getData(endpoint: "/todos/1") }
    }

    @Test func aBodyThatDoesNotDecodeIsInvalidData() async throws {
        let mock = Todos.client(baseUrl: URL(string: "http://localhost:8080")!).mocked()
        mock.stub(.get, "todos") { .response($0.urlRequest, body: Data(#"{"not":"a list"}"#.utf8)) }
        await #expect(throws: ApiError.invalidData) { let _: [Todo] = try await Api(client: mock.client).getData(endpoint: "/todos") }
    }

    @Test func aPathThatDoesNotFormAUrlIsInvalidUrl() async throws {
        let mock = Todos.client(baseUrl: URL(string: "http://localhost:8080")!).mocked()
        await #expect(throws: ApiError.invalidUrl) { try await Api(client: mock.client).deleteData(endpoint: "/todos/\u{0}") }
        #expect(mock.recordedRequests.isEmpty)
    }

    @Test func aTransportFailureIsInvalidResponse() async throws {
        let mock = Todos.client(baseUrl: URL(string: "http://localhost:8080")!).mocked()
        mock.resultProvider = { .failure(.transport($0, URLError(.cannotConnectToHost))) }
        await #expect(throws: ApiError.invalidResponse) { try await Api(client: mock.client).deleteData(endpoint: "/todos/1") }
    }
}
