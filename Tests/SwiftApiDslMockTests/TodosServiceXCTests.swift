import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import XCTest

/// The same consumer tests, written with XCTest.
final class TodosServiceXCTests: XCTestCase {
    private var mock: ApiClientMock!
    private var service: TodosService!

    override func setUp() {
        super.setUp()
        mock = TodosApi.client(baseUrl: Fixtures.baseUrl, token: "abc").mocked()
        mock.isStrict = true
        service = TodosService(client: mock.client)
    }

    func testListDecodesSnakeCaseTodos() async throws {
        try mock.stub(.get, "todos", body: [Fixtures.todo])
        let todos = try await service.list()
        XCTAssertEqual(todos, [Fixtures.todo])
    }

    func testCreatePostsOneAuthenticatedJsonDraft() async throws {
        try mock.stub(.post, "todos", body: Fixtures.todo, statusCode: 201)

        let created = try await service.create(title: "Buy milk")

        XCTAssertEqual(created, Fixtures.todo)
        let posts = mock.recordedRequests(method: .post, path: "todos")
        XCTAssertEqual(posts.count, 1)
        XCTAssertEqual(posts.first?.header(.authorization), "Bearer abc")
        XCTAssertEqual(try posts.first?.decodedBody(as: TodoDraft.self), TodoDraft(title: "Buy milk", isDone: false))
    }

    func testDeleteOfAMissingTodoThrowsWhenValidatorsApply() async throws {
        mock.appliesValidators = true
        mock.stub(.delete, "todos/:id", statusCode: 404)
        do {
            try await service.delete(id: 42)
            XCTFail("expected the delete to fail")
        } catch let error as RequestError {
            XCTAssertEqual(error.httpResponse?.statusCode, 404)
            XCTAssertEqual(error.request?.url?.absoluteString, "https://example.com/api/todos/42")
        }
    }

    func testUnexpectedCallFailsInStrictMode() async throws {
        do {
            _ = try await service.list()
            XCTFail("expected the strict mock to refuse an unstubbed request")
        } catch let error as RequestError {
            let unmatched = try XCTUnwrap(error.underlyingError as? UnmatchedRequestError)
            XCTAssertEqual(unmatched.path, "todos")
            XCTAssertEqual(unmatched.triedStubs, [])
        }
    }
}
