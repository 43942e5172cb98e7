// What the documentation's snippets take as given: an app's own models, services and helpers.
// Written as an app with main-actor isolation by default writes them (models `nonisolated`, shared
// values `nonisolated let`), so it compiles in both Consumers targets. Scripts/snippets says how
// the snippets around it are generated.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock

// MARK: Models

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
nonisolated struct Order: Codable, Sendable { var items: [String] }
nonisolated struct Credentials: Codable, Sendable { var user: String; var password: String }
nonisolated struct FieldProblem: Codable, Sendable { var field: String; var message: String }
nonisolated struct ApiProblem: Decodable, Error, Sendable { let reason: String }
nonisolated struct DeprecatedApi: Error {}
nonisolated struct LoggedOut: Error {}
nonisolated struct Page: Codable, Sendable { var items: [String]; var next: URL }
nonisolated struct TokenPair: Codable, Sendable { var access: String; var refresh: String }

nonisolated enum Books {
    static func search(_ text: String) -> Endpoint<BookList> {
        Endpoint(.get, "books/", query: [URLQueryItem(name: "search", value: text)])
    }
    static func book(id: Int) -> Endpoint<Book> { Endpoint(.get, "books/\(id)/") }
    static func forget(id: Int) -> Endpoint<EmptyResponse> { Endpoint(.delete, "books/\(id)/") }
    static func cover(id: Int) -> Endpoint<Data> { Endpoint(.get, "books/\(id)/cover.jpg") }
}
nonisolated enum Todos {
    static func all() -> Endpoint<[Todo]> { Endpoint(.get, "todos") }
    static func todo(id: Int) -> Endpoint<Todo> { Endpoint(.get, "todos/\(id)") }
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
nonisolated struct AnalyticsObserver {
    func observe(_ event: RequestEvent) {}
}

/// The app's client as Testing.md's examples expect it: snake_case keys, sorted.
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

// MARK: Values the snippets name
// (Foundation classes are computed, so that nothing here depends on whether an SDK marks them `Sendable`.)

nonisolated let baseUrl = URL(string: "https://api.example.com/v1")!
nonisolated let url = baseUrl
nonisolated let client = ApiClient(baseUrl: baseUrl).httpStatusCodeRange()
nonisolated let base = ApiClient(baseUrl: baseUrl)
nonisolated let tokenStore = TokenStore()
nonisolated let tokens = Tokens()
nonisolated let session = Session()
nonisolated let keychain = Keychain()
nonisolated let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
nonisolated let service = TodosService(client: mock.client)
nonisolated let token = "t"
nonisolated let adminToken = "admin"
nonisolated let password = "secret"
nonisolated let credentials = Credentials(user: "me", password: "secret")
nonisolated let newProfile = Profile(name: "Ann")
nonisolated let profile = Profile(name: "Ann")
nonisolated let todo = Todo(id: 7, title: "Buy milk", isDone: false)
nonisolated let order = Order(items: ["tea"])
nonisolated let orderId = "o-1"
nonisolated let text = "tolstoy"
nonisolated let note: String? = "front"
nonisolated let folder = FileManager.default.temporaryDirectory
nonisolated let billURL = folder.appendingPathComponent("bill.pdf")
nonisolated let scanURL = folder.appendingPathComponent("scan.pdf")
nonisolated let coverURL = folder.appendingPathComponent("cover.jpg")
nonisolated let csvURL = folder.appendingPathComponent("export.csv")
nonisolated let movieURL = folder.appendingPathComponent("movie.mp4")
nonisolated let fileURL = folder.appendingPathComponent("file")
nonisolated let documentsFolder = folder
nonisolated let extraPages = [folder.appendingPathComponent("p1.png")]
nonisolated let nextLink = URL(string: "https://api.example.com/v1/books/?page=2")!
nonisolated let mirrorURL = URL(string: "https://mirror.example.com/v1/books")!
nonisolated let thumbnail = Data()
nonisolated let pdfData = Data()
nonisolated let pngData = Data()
nonisolated let someData = Data()
nonisolated var legacyDecoder: JSONDecoder { JSONDecoder() }
nonisolated var encoder: JSONEncoder { JSONEncoder() }
nonisolated let store: [String: Todo] = ["7": todo]
nonisolated let page = Page(items: [], next: nextLink)
nonisolated let a = RequestModifier.header("X-A", "a")
nonisolated let b = RequestModifier.header("X-B", "b")
nonisolated let c = RequestModifier.header("X-C", "c")
nonisolated let v = ResponseValidator { _ in }
nonisolated let urlRequest = URLRequest(url: baseUrl)
nonisolated let requestError = RequestError.transport(urlRequest, URLError(.timedOut))
nonisolated var handle: FileHandle { FileHandle.nullDevice }
@MainActor let bar = ProgressBar()

// MARK: The app's helpers

func show(_ value: Any) {}
func showLogin() {}
func showNotFound() {}
func showAlert(_ message: String) {}
func showProblems(_ problems: [FieldProblem]) {}
func showSlowNetwork() {}
nonisolated func handle(_ line: String) {}
nonisolated func fetchToken() async throws -> String { "t" }
nonisolated func deviceId() async throws -> String { "d" }
/// Stands in for CryptoKit's `SHA256` (swift-crypto's on Linux), which this package does not depend on.
nonisolated struct SHA256 {
    mutating func update(data: Data) {}
    func finalize() -> [UInt8] { [] }
}
nonisolated func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
/// Runs in a middleware, off the main actor: `nonisolated`, as the README says.
nonisolated func sign(_ body: Data) throws -> String { String(body.count) }
