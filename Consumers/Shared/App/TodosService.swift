import Foundation
import SwiftApiDsl

/// What the app asks of its API, written against `ApiClient` so tests hand it a mock's client.
/// An ordinary struct: under main-actor isolation by default its methods run on the main actor
/// and the client does the network work elsewhere.
struct TodosService {
    let client: ApiClient

    func list() async throws -> [Todo] { try await client.perform(TodoApi.todos()) }

    func create(title: String) async throws -> Todo { try await client.perform(TodoApi.create(NewTodo(title: title))) }

    func delete(id: Int) async throws { try await client.perform(TodoApi.delete(id: id)) }

    /// Every match, following the server's `next` links.
    func search(_ text: String) async throws -> [Todo] {
        try await client.pages(TodoApi.search(text), next: .url { $0.next }).items(\.results).collect()
    }

    /// The message of the server's error document, if that is why the call failed.
    static func problem(in error: any Error) -> String? {
        (error.asRequestError.validationError as? ApiProblem)?.reason
    }

    /// A scan and a note as `multipart/form-data`.
    func upload(scan: Data, note: String?) async throws -> Receipt {
        try await client.post("documents")
            .multipartFormData {
                TextField(name: "type", value: "scan")
                DataField(name: "file", filename: "scan.pdf", data: scan, mimeType: "application/pdf")
                if let note { TextField(name: "note", value: note) }
            }
            .perform()
    }

    /// A generic helper an app writes once: `post(_:body:)` encodes the payload at once, here,
    /// so `Encodable` is enough.
    func postData<T: Encodable>(endpoint: String, payload: T) async throws {
        try await client.post(endpoint, body: payload).perform()
    }

    /// The same with `jsonBody(_:)`, which encodes when the request is sent, off the main actor:
    /// `Encodable & Sendable`, as for `Endpoint(body:)`.
    func putData<T: Encodable & Sendable>(endpoint: String, payload: T) async throws {
        try await client.put(endpoint).jsonBody(payload).perform()
    }
}

/// Background work in an actor: the endpoints and the DSL extension are usable here too.
actor SyncWorker {
    let client: ApiClient
    init(client: ApiClient) { self.client = client }

    func pull() async throws -> [Todo] {
        try await client.get("todos").apiVersion(3).modifier(.apiVersion(3)).perform()
    }
}
