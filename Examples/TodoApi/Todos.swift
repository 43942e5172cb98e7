import Foundation
import SwiftApiDsl

// Seed 000's hand-written `Api` class, as declarations. Its `ApiError` is not needed: a failure
// is a `RequestError` whose `statusCode` tells 400 from 404 from 5xx.

/// The to-do server's API.
public enum Todos {
    /// The client: snake_case JSON, 2xx only.
    public static func client(baseUrl: URL) -> ApiClient {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return ApiClient(baseUrl: baseUrl, jsonDecoder: decoder).httpStatusCodeRange(200...299)
    }

    /// Every to-do.
    public static func all() -> Endpoint<[Todo]> { Endpoint(.get, "todos") }
    /// Creates a to-do and returns it with its `id`.
    public static func create(_ todo: NewTodo) -> Endpoint<Todo> { Endpoint(.post, "todos", body: todo) }
    /// Replaces a to-do.
    public static func update(_ todo: Todo) -> Endpoint<Todo> { Endpoint(.put, "todos/\(todo.id)", body: todo) }
    /// Deletes a to-do.
    public static func delete(id: Int) -> Endpoint<EmptyResponse> { Endpoint(.delete, "todos/\(id)") }
}
