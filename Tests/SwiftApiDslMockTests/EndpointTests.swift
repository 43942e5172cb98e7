import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Typed endpoints go through the same pipeline as `client.get(…).perform()`.
@Suite struct EndpointTests {
    enum Todos {
        static func todo(id: Int) -> Endpoint<Todo> { Endpoint(.get, "todos/\(id)") }
        static func create(_ draft: TodoDraft) -> Endpoint<Todo> { Endpoint(.post, "todos", body: draft) }
        static func delete(id: Int) -> Endpoint<EmptyResponse> { Endpoint(.delete, "todos/\(id)") }
        static func search(_ text: String) -> Endpoint<Data> {
            Endpoint(.get, "todos", query: [URLQueryItem(name: "q", value: text)], headers: ["X-Trace": "t1"])
        }
        static func title(id: Int) -> Endpoint<String> {
            Endpoint(.get, "todos/\(id)/title", decode: { String(decoding: $0.body, as: UTF8.self) })
        }
    }

    let mock = TodosApi.client(baseUrl: Fixtures.baseUrl, token: "abc").mocked()

    @Test func endpointDecodesWithTheClientsDecoderAndRunsTheClientsModifiers() async throws {
        mock.stub(.get, "todos/7") { .response($0.urlRequest, body: Data(Fixtures.todoJson.utf8)) }
        let todo = try await mock.perform(Todos.todo(id: 7))
        #expect(todo == Fixtures.todo)
        let recorded = try #require(mock.recordedRequests.first)
        #expect(recorded.url.absoluteString == "https://example.com/api/todos/7")
        #expect(recorded.header(.authorization) == "Bearer abc")
        #expect(recorded.header(.accept) == "application/json")
    }

    @Test func endpointBodyIsEncodedWithTheClientsEncoder() async throws {
        mock.stub(.post, "todos") { .response($0.urlRequest, body: Data(Fixtures.todoJson.utf8), statusCode: 201) }
        let response = try await mock.response(for: Todos.create(TodoDraft(title: "Buy milk", isDone: false)))
        #expect(response.statusCode == 201)
        #expect(response.body.id == 7)
        let post = try #require(mock.recordedRequests(method: .post).first)
        #expect(post.bodyText == #"{"is_done":false,"title":"Buy milk"}"#)
        #expect(post.header(.contentType) == "application/json")
    }

    @Test func emptyResponseRawDataAndCustomDecoding() async throws {
        mock.stub(.get, "todos/7/title") { .response($0.urlRequest, body: Data("Buy milk".utf8)) }
        #expect(try await mock.perform(Todos.delete(id: 7)) == EmptyResponse())
        #expect(try await mock.perform(Todos.search("milk")) == Data())
        #expect(try await mock.perform(Todos.title(id: 7)) == "Buy milk")
    }

    @Test func queryHeadersAndChainedModifiersApplyInOrder() async throws {
        let endpoint = Todos.search("milk & honey").queryItem(name: "page", "2").header(.authorization, nil)
        let request = try await mock.urlRequest(for: endpoint)
        #expect(request.url?.absoluteString == "https://example.com/api/todos?q=milk%20%26%20honey&page=2")
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "t1")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(mock.recordedRequests.isEmpty)
    }

    @Test func urlRequestOfABuilderAppliesBaseModifiersAndAuthentication() async throws {
        let request = try await mock.client.get("todos/7").userAgent("tests").urlRequest()
        #expect(request.url?.absoluteString == "https://example.com/api/todos/7")
        #expect(request.httpMethod == "GET")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "tests")
    }

    @Test func bypassAuthAndOwnDecoderAreHonoured() async throws {
        let endpoint = Endpoint<[String: Int]>(.get, "stats", bypassAuth: true, jsonDecoder: JSONDecoder())
        mock.stub(.get, "stats") { .response($0.urlRequest, body: Data(#"{"open_count":3}"#.utf8)) }
        #expect(try await mock.perform(endpoint) == ["open_count": 3])
        #expect(mock.recordedRequests.first?.header(.authorization) == nil)
    }

    @Test func endpointValidatorsRunAfterTheClientsWhenTheMockAppliesThem() async throws {
        mock.appliesValidators = true
        mock.stub(.get, "todos/7", statusCode: 404)
        let accepting = Endpoint<EmptyResponse>(.get, "todos/7").httpStatusCodeRange(200...404)
        #expect(try await mock.response(for: accepting).statusCode == 404)
        let error = await #expect(throws: RequestError.self) { try await mock.perform(Todos.todo(id: 7)) }
        #expect(error?.validationError as? ApiClientError == ApiClientError(.unacceptableStatusCode, message: "status code 404 is outside 200..<300", statusCode: 404, acceptableStatusCodes: 200..<300))
    }

    @Test func aBodyThatDoesNotDecodeNamesTheType() async throws {
        mock.stub(.get, "todos/7/title") { .response($0.urlRequest, body: Data([0xFF])) }
        let failing = Endpoint<Int>(.get, "todos/7/title", decode: { _ in throw CocoaError(.coderReadCorrupt) })
        let error = await #expect(throws: RequestError.self) { try await mock.perform(failing) }
        guard case .fatal(.decoding(let expected, _, let response, _)) = error else {
            Issue.record("expected a decoding error, got \(String(describing: error))")
            return
        }
        #expect(expected == "Int")
        #expect(response.body == Data([0xFF]))
    }

    @Test func downloadWritesAnEndpointsBody() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        mock.stub(.get, "files/1") { .response($0.urlRequest, body: Data("PDF".utf8)) }
        let destination = folder.appendingPathComponent("bill.pdf")
        try await mock.download(Endpoint<Data>(.get, "files/1"), destination: destination)
        #expect(try Data(contentsOf: destination) == Data("PDF".utf8))
    }
}
