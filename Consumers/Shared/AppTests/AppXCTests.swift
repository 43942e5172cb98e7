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

    @MainActor func testTheServersReasonReachesTheApp() async throws {
        mock.appliesValidators = true
        try mock.stub(.delete, "todos/:id", body: Data(#"{"reason":"already gone"}"#.utf8), statusCode: 410)
        var reason: String?
        do { try await service.delete(id: 42) } catch { reason = TodosService.problem(in: error) }
        XCTAssertEqual(reason, "already gone")
        XCTAssertEqual(mock.recordedRequests.map(\.path), ["todos/42"])
    }

    @MainActor func testCreatingSendsTheDraftAsJSON() async throws {
        try mock.stub(.post, "todos", body: Todo(id: 3, title: "Read", isDone: false), statusCode: 201)
        let created = try await service.create(title: "Read")
        XCTAssertEqual(created, Todo(id: 3, title: "Read", isDone: false))
        XCTAssertEqual(try mock.recordedRequests.first?.decodedBody(as: NewTodo.self), NewTodo(title: "Read"))
    }
}
