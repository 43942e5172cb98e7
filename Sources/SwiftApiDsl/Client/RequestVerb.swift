import Foundation

/// One HTTP method on one client, called like a method to start a request: `client.get`,
/// `client.post`… (see ``RequestStarting``).
///
/// ```swift
/// let todo: Todo = try await client.get("todos/7").perform()
/// try await client.post("todos", body: newTodo).perform()
/// ```
public struct RequestVerb: Sendable {
    let client: ApiClient
    let method: HttpMethod

    /// Starts a request with this method; see ``RequestStarting/request(_:_:bypassAuth:body:jsonEncoder:)``.
    public func callAsFunction(
        _ path: String? = nil, bypassAuth: Bool = false, body: (any Encodable)? = nil, jsonEncoder: JSONEncoder? = nil
    ) -> RequestBuilder {
        client.request(method, path, bypassAuth: bypassAuth, body: body, jsonEncoder: jsonEncoder)
    }
}
