#if OpenAPI && AsyncHTTPClient
import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime

/// A client written by hand the way swift-openapi-generator writes one: each operation
/// serializes its input into an `HTTPRequest` and an `HTTPBody`, sends it through
/// `UniversalClient` (the generated code's own path, middlewares and error wrapping included),
/// and decides itself what each status means, an undocumented one included.
struct TodosAPI: Sendable {
    struct Todo: Codable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    struct NewTodo: Codable, Sendable, Equatable {
        var title: String
    }

    /// What an operation answered: its documented `200`, or any other status with its body.
    enum Output<Value: Sendable & Equatable>: Sendable, Equatable {
        case ok(Value)
        case undocumented(statusCode: Int, body: String)
    }

    let client: UniversalClient

    init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = []) {
        client = UniversalClient(serverURL: serverURL, transport: transport, middlewares: middlewares)
    }

    /// `GET /todos/{id}`
    func getTodo(id: Int) async throws -> Output<Todo> {
        try await send(operation: "getTodo", HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/todos/\(id)",
                                                           headerFields: [.accept: "application/json"]), body: nil)
    }

    /// `POST /todos` with a JSON body.
    func createTodo(_ todo: NewTodo) async throws -> Output<Todo> {
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/todos",
                                  headerFields: [.accept: "application/json", .contentType: "application/json; charset=utf-8"])
        return try await send(operation: "createTodo", request, body: HTTPBody(try JSONEncoder().encode(todo)))
    }

    /// Any request as written, answered with its status, header fields and body text.
    func raw(_ request: HTTPRequest, body: HTTPBody? = nil, operation: String = "raw") async throws -> (HTTPResponse, String) {
        try await client.send(input: request, forOperation: operation, serializer: { _ in (request, body) }, deserializer: { response, body in
            (response, try await Self.text(body))
        })
    }

    private func send<Value: Decodable & Sendable & Equatable>(operation: String, _ request: HTTPRequest, body: HTTPBody?) async throws -> Output<Value> {
        try await client.send(input: request, forOperation: operation, serializer: { _ in (request, body) }, deserializer: { response, body in
            let text = try await Self.text(body)
            guard response.status.code == 200 else { return .undocumented(statusCode: response.status.code, body: text) }
            return .ok(try JSONDecoder().decode(Value.self, from: Data(text.utf8)))
        })
    }

    static func text(_ body: HTTPBody?) async throws -> String {
        guard let body else { return "" }
        return try await String(collecting: body, upTo: 2 << 20)
    }
}
#endif
