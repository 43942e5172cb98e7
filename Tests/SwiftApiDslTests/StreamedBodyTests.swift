import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// `RequestBody.stream`: its chunks come once per sending, asynchronously; everything that
/// would read it synchronously says so with a code, and its text forms say what it is.
@Suite struct StreamedBodyTests {
    static func body(_ text: String, length: Int64?, repeatable: Bool) -> StreamedBody {
        StreamedBody(length: length, repeatable: repeatable) { ResponseBody(Data(text.utf8)) }
    }

    static func request(_ body: StreamedBody) -> TransportRequest {
        TransportRequest(url: URL(string: "https://api.example.com/uploads")!, method: .post, body: .stream(body))
    }

    /// The code of the ``ApiClientError`` that `body` throws; `nil` when it throws nothing or another error.
    static func code(_ body: () throws -> Void) -> ApiClientError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? ApiClientError)?.code
        }
    }

    @Test func aRepeatableBodyGivesItsChunksEachTime() async throws {
        let body = Self.body("abc", length: 3, repeatable: true)
        for _ in 0..<2 {
            var data = Data()
            for try await chunk in try body.makeChunks() { data.append(chunk) }
            #expect(data == Data("abc".utf8))
        }
    }

    @Test func aBodyThatCanBeReadOnceRefusesASecondSending() throws {
        let body = Self.body("abc", length: nil, repeatable: false)
        let copy = body // the same body: copies share whether it was sent
        _ = try body.makeChunks()
        let error = #expect(throws: ApiClientError.self) { try copy.makeChunks() }
        #expect(error?.code == .streamedBodyUnreadable)
        #expect(body == copy)
        #expect(body != Self.body("abc", length: nil, repeatable: false))
    }

    @Test func synchronousReadersThrowTheCodeAndTheLengthIsTheAnnouncedOne() throws {
        let unknown = Self.request(Self.body("abc", length: nil, repeatable: true))
        #expect(Self.code { _ = try unknown.bodyData() } == .streamedBodyUnreadable)
        #expect(Self.code { _ = try unknown.makeBodyReader().next() } == .streamedBodyUnreadable)
        #expect(Self.code { _ = try unknown.body?.contentLength() } == .streamedBodyUnreadable)
        let known = Self.request(Self.body("abc", length: 3, repeatable: true))
        #expect(try known.body?.contentLength() == 3)
    }

    @Test func textFormsSayTheBodyIsStreamed() {
        let known = Self.request(Self.body("abc", length: 3, repeatable: true))
        let unknown = Self.request(Self.body("abc", length: nil, repeatable: true))
        #expect(known.curlDescription == "curl -X POST 'https://api.example.com/uploads' --data-binary @- # a streamed body of 3 bytes, to give on standard input")
        #expect(unknown.curlDescription.hasSuffix("--data-binary @- # a streamed body of unknown length, to give on standard input"))
        var dumped = ""
        dump(unknown, to: &dumped)
        #expect(dumped.contains("body: \"stream of unknown length\""))
        dumped = ""
        dump(known, to: &dumped)
        #expect(dumped.contains("body: \"stream of 3 bytes\""))
    }

    /// The chained and static spellings name the call; observers and middlewares read it.
    @Test func aNamedCallCarriesItsNameToMiddlewaresAndObservers() async throws {
        let seen = NamesSeen()
        let client = ApiClient(transport: InProcessTransport { _, body in
            body.finish()
            return (200, [:])
        }, baseUrl: URL(string: "https://api.example.com")!)
            .middleware(Middleware("names") { request, next in
                seen.append("middleware \(request.name ?? "-")")
                return try await next(request)
            })
            .observer { event in
                if case .prepared(let request) = event.kind { seen.append("prepared \(request.name ?? "-")") }
            }
        try await client.get("todos").name("listTodos").perform()
        try await client.get("todos").modifier(.name("first")).name("second").perform()
        try await client.get("todos").perform()
        #expect(seen.values == ["prepared listTodos", "middleware listTodos", "prepared second", "middleware second", "prepared -", "middleware -"])
    }

    final class NamesSeen: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ name: String) { lock.lock(); list.append(name); lock.unlock() }
        var values: [String] { lock.lock(); defer { lock.unlock() }; return list }
    }
}
