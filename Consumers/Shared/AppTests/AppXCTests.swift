import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import XCTest
#if MAIN_ACTOR_APP
@testable import MainActorApp
#else
@testable import PlainApp
#endif

/// The same API layer in XCTest, written so that it compiles in Swift 6 both with main-actor
/// isolation by default and without: the class is `nonisolated` (XCTestCase's initialisers and
/// `setUp()` are), and each test that touches main-actor code is `@MainActor`.
nonisolated final class AppXCTests: XCTestCase {
    private var mock: ApiClientMock!
    private var service: TodosService!

    override func setUp() {
        super.setUp()
        mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
        mock.isStrict = true
        service = TodosService(client: AppApi.client(mock.client, tokens: TokenStore(TokenPair(access: "x", refresh: "y"))))
    }

    @MainActor func testDeletingAMissingTodoFailsWithItsStatus() async throws {
        mock.appliesValidators = true
        mock.stub(.delete, "todos/:id", statusCode: 404)
        do {
            try await service.delete(id: 42)
            XCTFail("expected the delete to fail")
        } catch let error as RequestError {
            XCTAssertEqual(error.statusCode, 404)
            XCTAssertEqual(mock.recordedRequests.first?.path, "todos/42")
        }
    }

    @MainActor func testCreatingSendsTheDraftAsJSON() async throws {
        try mock.stub(.post, "todos", body: Todo(id: 3, title: "Read", isDone: false), statusCode: 201)
        let created = try await service.create(title: "Read")
        XCTAssertEqual(created, Todo(id: 3, title: "Read", isDone: false))
        XCTAssertEqual(try mock.recordedRequests.first?.decodedBody(as: NewTodo.self), NewTodo(title: "Read"))
    }
}
