import Foundation
import SwiftApiDsl

// Consumer code, written only against ApiClient as an app would write it: nothing here knows
// about the mock. The tests inject `ApiClientMock.client` (or `client.mocked().client`).

/// A todo as the API sends it: `{"id": 7, "title": "…", "is_done": false, "created_at": "2023-11-14T22:13:20Z"}`.
struct Todo: Codable, Equatable, Sendable {
    let id: Int
    var title: String
    var isDone: Bool
    let createdAt: Date
}

/// What the API takes to create or update a todo.
struct TodoDraft: Codable, Equatable, Sendable {
    var title: String
    var isDone: Bool
}

/// The app's client for the todos API: snake_case JSON, ISO 8601 dates, bearer token, 2xx only.
enum TodosApi {
    static func client(baseUrl: URL, token: String) -> ApiClient {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return ApiClient(baseUrl: baseUrl, jsonEncoder: encoder, jsonDecoder: decoder)
            .accept("application/json")
            .authentication(.bearer(token))
            .httpStatusCodeRange()
    }
}

/// The service under test: list, create, update and delete todos.
struct TodosService: Sendable {
    let client: ApiClient

    func list() async throws -> [Todo] {
        try await client.get("todos").perform()
    }

    func create(title: String) async throws -> Todo {
        try await client.post("todos", body: TodoDraft(title: title, isDone: false)).perform()
    }

    func update(_ todo: Todo) async throws -> Todo {
        try await client.put("todos/\(todo.id)", body: TodoDraft(title: todo.title, isDone: todo.isDone)).perform()
    }

    func delete(id: Int) async throws {
        try await client.delete("todos/\(id)").perform()
    }
}
