import Foundation
import SwiftApiDsl

/// The app's endpoints, declared once. `nonisolated` so that an actor or a background task can
/// use them as well as the main actor.
nonisolated enum TodoApi {
    static func todos() -> Endpoint<[Todo]> { Endpoint(.get, "todos") }
    static func todo(id: Int) -> Endpoint<Todo> { Endpoint(.get, "todos/\(id)") }
    static func create(_ draft: NewTodo) -> Endpoint<Todo> { Endpoint(.post, "todos", body: draft) }
    static func delete(id: Int) -> Endpoint<EmptyResponse> { Endpoint(.delete, "todos/\(id)") }
    static func search(_ text: String) -> Endpoint<TodoPage> {
        Endpoint(.get, "todos/search", query: [URLQueryItem(name: "q", value: text)])
    }
}

/// The DSL extended the documented way: `nonisolated` so its members can be called from any
/// isolation (they would be main-actor isolated otherwise, under main-actor isolation by default).
nonisolated extension RequestModifier {
    static func apiVersion(_ version: Int) -> RequestModifier { .header("X-Api-Version", String(version)) }
}

nonisolated extension RequestModifiable {
    func apiVersion(_ version: Int) -> Self { modifier(.apiVersion(version)) }
}
