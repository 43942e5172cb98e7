// The app code the documentation's snippets stand in: its models, endpoint namespaces, services
// and helpers, written as an app with main-actor isolation by default writes them, so it compiles
// the same in both Consumers targets. No values: what a snippet is handed (`client`, `token`…) the
// article names in a `Given` sentence, and Scripts/snippets passes it as a parameter. What is
// `nonisolated` here is what the articles tell the reader to declare so (models and namespaces,
// see GettingStarted.md's "Main actor by default"); Scripts/snippets fails a fence that uses one
// before its article says so.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock

// MARK: Models
// `nonisolated`, as GettingStarted.md's "Main actor by default" tells an app to declare the types
// it sends and receives; each article that uses one says so in a `Given` sentence.

nonisolated struct Todo: Codable, Sendable, Equatable { var id: Int; var title: String; var isDone: Bool }
nonisolated struct NewTodo: Codable, Sendable { var title: String }
nonisolated struct TodoDraft: Codable, Sendable, Equatable { var title: String; var isDone: Bool }
nonisolated struct Profile: Codable, Sendable { var name: String }
nonisolated struct User: Codable, Sendable { var id: Int; var name: String }
nonisolated struct Article: Codable, Sendable { var title: String }
nonisolated struct News: Codable, Sendable { var articles: [Article] }
nonisolated struct Receipt: Codable, Sendable { var id: String }
nonisolated struct Book: Codable, Sendable { var id: Int; var title: String }
nonisolated struct BookList: Codable, Sendable { var results: [Book]; var next: URL? }
nonisolated struct NewReview: Codable, Sendable { var text: String }
nonisolated struct Review: Codable, Sendable { var id: Int }
nonisolated struct Candidate: Codable, Sendable { var id: Int }
nonisolated struct FieldProblem: Codable, Sendable { var field: String; var message: String }
nonisolated struct ApiProblem: Decodable, Error, Sendable { let reason: String }
nonisolated struct Page: Codable, Sendable { var items: [String]; var next: URL }
nonisolated struct TokenPair: Codable, Sendable { var access: String; var refresh: String }

// Left as an app writes them by default: nothing the snippets do with them needs more.
struct Order: Codable, Sendable { var items: [String] }
struct Credentials: Codable, Sendable { var user: String; var password: String }
struct DeprecatedApi: Error {}
struct LoggedOut: Error {}

// Endpoint namespaces, `nonisolated` as DescribingAnAPI.md shows and Errors.md says.
nonisolated enum Books {
    static func search(_ text: String) -> Endpoint<BookList> {
        Endpoint(.get, "books/", query: [URLQueryItem(name: "search", value: text)])
    }
    static func book(id: Int) -> Endpoint<Book> { Endpoint(.get, "books/\(id)/") }
    static func forget(id: Int) -> Endpoint<EmptyResponse> { Endpoint(.delete, "books/\(id)/") }
    static func cover(id: Int) -> Endpoint<Data> { Endpoint(.get, "books/\(id)/cover.jpg") }
}

nonisolated enum Candidates {
    static func all() -> Endpoint<[Candidate]> { Endpoint(.get, "candidates") }
}

// MARK: The app's services

actor TokenStore {
    func token() async throws -> String { "t" }
}
actor Tokens {
    var access = "a"
    var refresh = "r"
    func store(_ pair: TokenPair) { access = pair.access; refresh = pair.refresh }
}
actor Session {
    func accessToken() async throws -> String { "a" }
    func refresh(_ expired: String) async throws -> String { "b" }
    func signOut() {}
}
actor Keychain {
    func apiKey() async throws -> String { "k" }
    func rotateApiKey() async throws -> String { "k2" }
}
/// Its `observe` is called off the main actor: `nonisolated`, as Observability.md says.
nonisolated struct AnalyticsObserver {
    func observe(_ event: RequestEvent) {}
}

/// The app's client as Testing.md's examples expect it: snake_case keys, sorted. `nonisolated`, as
/// Testing.md says: an XCTest case's nonisolated `setUp()` calls it.
nonisolated enum AppApi {
    static func client(token: String) -> ApiClient {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return ApiClient(baseUrl: URL(string: "https://example.com/api")!, jsonEncoder: encoder, jsonDecoder: decoder)
            .bearer(token)
            .httpStatusCodeRange()
    }
}
struct TodosService {
    let client: ApiClient
    func list() async throws -> [Todo] { try await client.get("todos").perform() }
    func create(title: String) async throws -> Todo {
        try await client.post("todos", body: TodoDraft(title: title, isDone: false)).perform()
    }
    func delete(id: Int) async throws { try await client.delete("todos/\(id)").perform() }
}

/// A progress bar on screen.
@MainActor final class ProgressBar { var value = 0.0 }

// MARK: The app's helpers

func show(_ value: Any) {}
func showLogin() {}
func showNotFound() {}
func showAlert(_ message: String) {}
func showProblems(_ problems: [FieldProblem]) {}
func showSlowNetwork() {}
func handle(_ line: String) {}
func fetchToken() async throws -> String { "t" }
func deviceId() async throws -> String { "d" }
/// Stands in for CryptoKit's `SHA256` (swift-crypto's on Linux), which this package does not
/// depend on: a library's type, isolated to no actor.
nonisolated struct SHA256 {
    mutating func update(data: Data) {}
    func finalize() -> [UInt8] { [] }
}
/// Runs in a middleware, off the main actor: `nonisolated`, as the README says.
nonisolated func sign(_ body: Data) throws -> String { String(body.count) }
