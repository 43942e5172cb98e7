import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import SwiftApiDsl
import SwiftApiDslMock
import SwiftApiDslOpenAPI

// Compiled with main-actor isolation by default, as an app module is: the transport is made,
// configured and used from the main actor, and the closures an app writes compile there.

/// A view model of an app whose generated client sends through the library.
final class TodosViewModel {
    private let transport: ApiClientTransport
    private let serverURL: URL
    private(set) var title = ""

    init(client: ApiClient) {
        serverURL = client.baseUrl
        transport = ApiClientTransport(client.observer { event in _ = event.description }, validation: .client)
    }

    func load() async throws {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/todos/1", headerFields: [.accept: "text/plain"])
        let (response, body) = try await transport.send(request, body: nil, baseURL: serverURL, operationID: "getTodo")
        guard response.status == .ok, let body else { return }
        title = try await String(collecting: body, upTo: 1024)
    }
}

@Suite struct MainActorAppTests {
    @Test func aViewModelOnTheMainActorLoadsThroughTheTransport() async throws {
        let mock = ApiClientMock(baseUrl: URL(string: "https://api.example.com")!)
        mock.stub(.get, "todos/:id") { request in .response(request.urlRequest, body: Data("Buy milk".utf8)) }
        let model = TodosViewModel(client: mock.client)
        try await model.load()
        #expect(model.title == "Buy milk")
        #expect(mock.recordedRequests.map(\.path) == ["todos/1"])
    }
}
