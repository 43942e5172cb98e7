import Foundation
import SwiftApiDsl
import SwiftApiDslMock
#if MAIN_ACTOR_APP
@testable import MainActorApp
#else
@testable import PlainApp
#endif

/// A mock server for the app's client, with the app's real modifiers, authentication and error
/// body. `nonisolated`: stubs answer off the main actor and read its data there.
nonisolated struct Fixture {
    let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
    let tokens = TokenStore(TokenPair(access: "a1", refresh: "r1"))
    var client: ApiClient { AppApi.client(mock.client, tokens: tokens) }
    var service: TodosService { TodosService(client: client) }

    static let todos = [Todo(id: 1, title: "Buy milk", isDone: false), Todo(id: 2, title: "Call Ann", isDone: true)]

    init(strict: Bool = true) { mock.isStrict = strict }
}
