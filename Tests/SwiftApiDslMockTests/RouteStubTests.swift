import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Stubs answer by method and path relative to the base URL, first match wins.
@Suite struct RouteStubTests {
    let mock = TodosApi.client(baseUrl: URL(string: "https://example.com/api/v1/")!, token: "t").mocked()

    @Test func valueStubIsEncodedWithTheClientsEncoder() async throws {
        try mock.stub(.get, "todos/7", body: Fixtures.todo, statusCode: 200)
        let response = try await mock.get("todos/7").perform()
        #expect(String(decoding: response.body, as: UTF8.self) == Fixtures.todoJson)
        #expect(response.httpResponse.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let todo: Todo = try await mock.get("todos/7").perform()
        #expect(todo == Fixtures.todo)
    }

    @Test func pathParametersReachTheResponder() async throws {
        mock.stub(.get, "users/:user/todos/:id") { request in
            .response(request.urlRequest, body: request.pathParameters)
        }
        let parameters: [String: String] = try await mock.get("users/ada lovelace/todos/42").perform()
        #expect(parameters == ["user": "ada lovelace", "id": "42"])
        #expect(mock.recordedRequests.last?.pathParameters == ["user": "ada lovelace", "id": "42"])
    }

    @Test func stubsAreTriedInOrderAndTheFirstMatchAnswers() async throws {
        mock.stub(.get, "todos/new", statusCode: 201)
        mock.stub(.get, "todos/:id", statusCode: 202)
        mock.stub(.get, "todos/7", statusCode: 203)
        #expect(try await mock.get("todos/new").perform().httpResponse.statusCode == 201)
        #expect(try await mock.get("todos/7").perform().httpResponse.statusCode == 202)
    }

    @Test func methodMustMatchUnlessTheStubTakesAnyMethod() async throws {
        mock.stub(.get, "todos", statusCode: 201)
        mock.stub(nil, "todos", statusCode: 202)
        #expect(try await mock.get("todos").perform().httpResponse.statusCode == 201)
        #expect(try await mock.delete("todos").perform().httpResponse.statusCode == 202)
        #expect(try await mock.request(HttpMethod("PURGE"), "todos").perform().httpResponse.statusCode == 202)
    }

    @Test func pathIsRelativeToTheBaseUrlWithoutQueryAndLeadingSlashIsIgnored() async throws {
        mock.stub(.get, "/todos", statusCode: 201)
        mock.stub(.get, "", statusCode: 202)
        #expect(try await mock.get("todos").queryItem(name: "done", "1").perform().httpResponse.statusCode == 201)
        #expect(try await mock.get("/todos").perform().httpResponse.statusCode == 201)
        #expect(try await mock.get().perform().httpResponse.statusCode == 202)
        #expect(mock.recordedRequests.map(\.path) == ["todos", "todos", ""])
    }

    /// A pattern, a path requested, and whether the pattern matches it.
    struct PatternCase: Sendable, CustomTestStringConvertible {
        let pattern: String
        let path: String
        let matches: Bool
        var testDescription: String { "\(pattern) \(matches ? "matches" : "does not match") \(path)" }
    }

    static let patternCases = [
        PatternCase(pattern: "books/", path: "books/", matches: true),
        PatternCase(pattern: "books/", path: "books", matches: false),
        PatternCase(pattern: "books", path: "books/", matches: false),
        PatternCase(pattern: "files/*", path: "files/a", matches: true),
        PatternCase(pattern: "files/*", path: "files/a/b", matches: false),
        PatternCase(pattern: "files/*", path: "files/", matches: false),
        PatternCase(pattern: "todos/:id", path: "todos/", matches: false),
        PatternCase(pattern: "assets/**", path: "assets", matches: true),
        PatternCase(pattern: "assets/**", path: "assets/img/logo.png", matches: true),
        PatternCase(pattern: "assets/**", path: "asset", matches: false),
        PatternCase(pattern: "search/a%20b", path: "search/a b", matches: true),
        PatternCase(pattern: "search/a b", path: "search/a b", matches: true),
        PatternCase(pattern: "tags/c++", path: "tags/c++", matches: true),
        PatternCase(pattern: "todos", path: "todos/7", matches: false),
        PatternCase(pattern: "todos/7", path: "todos", matches: false),
    ]

    @Test(arguments: patternCases)
    func patternMatchesSegmentBySegment(_ patternCase: PatternCase) async throws {
        mock.stub(.get, patternCase.pattern, statusCode: 201)
        let status = try await mock.get(patternCase.path).perform().httpResponse.statusCode
        #expect(status == (patternCase.matches ? 201 : 200))
    }

    @Test func unmatchedRequestGetsTheResultProviderThenAnEmpty200() async throws {
        mock.stub(.get, "todos", statusCode: 201)
        mock.resultProvider = { request in
            request.url?.lastPathComponent == "provided" ? .response(request, statusCode: 202) : nil
        }
        #expect(try await mock.get("provided").perform().httpResponse.statusCode == 202)
        let fallback = try await mock.get("other").perform()
        #expect(fallback.httpResponse.statusCode == 200)
        #expect(fallback.body.isEmpty)
    }

    @Test func stubsAnswerBeforeTheResultProvider() async throws {
        mock.resultProvider = { .response($0, statusCode: 500) }
        mock.stub(.get, "todos", statusCode: 201)
        #expect(try await mock.get("todos").perform().httpResponse.statusCode == 201)
        #expect(try await mock.get("other").perform().httpResponse.statusCode == 500)
    }

    @Test func strictMockFailsAnUnmatchedRequestNamingItAndTheStubsTried() async throws {
        mock.isStrict = true
        mock.stub(.get, "todos", statusCode: 200)
        mock.stub(nil, "todos/:id/tags", statusCode: 200)
        let error = await #expect(throws: RequestError.self) { try await mock.delete("todos/7").perform() }
        guard case .transport(let request, let underlying) = error, let unmatched = underlying as? UnmatchedRequestError else {
            Issue.record("expected a transport error with UnmatchedRequestError, got \(String(describing: error))")
            return
        }
        #expect(request.url?.absoluteString == "https://example.com/api/v1/todos/7")
        #expect(unmatched.method == .delete)
        #expect(unmatched.path == "todos/7")
        #expect(unmatched.triedStubs == ["GET todos", "ANY todos/:id/tags"])
        #expect(unmatched.description == "no stub of the strict ApiClientMock answers DELETE https://example.com/api/v1/todos/7 "
            + "(path \"todos/7\"), and no resultProvider did; stubs tried, in order: GET todos, ANY todos/:id/tags")
        #expect(error?.localizedDescription == "RequestError.transport: DELETE https://example.com/api/v1/todos/7 failed: "
            + unmatched.description)
        #expect(mock.recordedRequests.count == 1)
    }

    @Test func strictMockWithoutStubsSaysSo() async throws {
        mock.isStrict = true
        let error = await #expect(throws: RequestError.self) { try await mock.get("todos").perform() }
        let unmatched = try #require(error?.underlyingError as? UnmatchedRequestError)
        #expect(unmatched.triedStubs.isEmpty)
        #expect(unmatched.description.hasSuffix("no resultProvider did; no stubs are set"))
    }

    @Test func strictMockStillUsesTheResultProvider() async throws {
        mock.isStrict = true
        mock.resultProvider = { .response($0, statusCode: 202) }
        #expect(try await mock.get("todos").perform().httpResponse.statusCode == 202)
    }

    @Test func removeAllStubsFallsBackToTheDefaultAnswer() async throws {
        mock.stub(.get, "todos", statusCode: 201)
        mock.removeAllStubs()
        #expect(try await mock.get("todos").perform().httpResponse.statusCode == 200)
    }

    @Test func valueStubThatCannotBeEncodedThrowsAtOnce() {
        #expect(throws: EncodingError.self) { try mock.stub(.get, "numbers", body: [Double.nan]) }
    }

    @Test func dataStubIsSentAsIs() async throws {
        try mock.stub(.get, "raw", body: Data([0, 1, 2]), headers: ["Content-Type": "application/octet-stream"])
        let response = try await mock.get("raw").perform()
        #expect(response.body == Data([0, 1, 2]))
        #expect(response.httpResponse.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
    }
}
