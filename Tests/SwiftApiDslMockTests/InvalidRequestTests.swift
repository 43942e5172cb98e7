import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock

/// A mock refuses an unfit request exactly as a real transport does: `.modify`, nothing recorded.
@Suite struct InvalidRequestTests {
    @Test(arguments: [nil, "/x", "file:///etc/passwd"] as [String?])
    func aModifierThatBreaksTheUrlFailsAsModifyAndIsNotRecorded(link: String?) async throws {
        let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
        let error = await #expect(throws: RequestError.self) {
            try await mock.get("todos").modifier { $0.url = link.flatMap(URL.init(string:)) }.perform()
        }
        guard case .modify(_, let cause)? = error else { Issue.record("expected .modify, got \(String(describing: error))"); return }
        #expect((cause as? ApiClientError)?.code == .invalidURL)
        #expect(mock.recordedRequests.isEmpty)
    }

    /// The code of the ``ApiClientError`` that `perform` fails with as `.modify`.
    func code(_ perform: () async throws -> Void) async -> ApiClientError.Code? {
        let error = await #expect(throws: RequestError.self) { try await perform() }
        guard case .modify(_, let cause)? = error else { Issue.record("expected .modify, got \(String(describing: error))"); return nil }
        return (cause as? ApiClientError)?.code
    }

    @Test func eachKindOfFaultHasItsCode() async throws {
        let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
        #expect(await code { try await mock.get("a\u{0}b").perform() } == .unresolvableURL)
        #expect(await code { try await mock.get("todos").queryItems([URLQueryItem(name: "q", value: "1")]).modifier { $0.url = URL(string: "ftp://example.com") }.perform() } == .invalidURL)
        #expect(await code { try await mock.request(HttpMethod("GET ME"), "todos").perform() } == .invalidMethod)
        #expect(await code { try await mock.get("todos").header("X-Note", "a\nb").perform() } == .invalidHeader)
        #expect(await code { try await mock.get("todos").modifier { $0.setValue("1", forHTTPHeaderField: "Bad Name") }.perform() } == .invalidHeader)
        #expect(await code { try await ApiClientMock(baseUrl: URL(string: "todos")!).get("7").perform() } == .unresolvableURL)
    }

    @Test func codesCompareAndPrintByName() {
        let error = ApiClientError(.unsupportedByTransport, message: "this engine sends no TRACE requests")
        #expect(error == ApiClientError(.unsupportedByTransport, message: "this engine sends no TRACE requests"))
        #expect(error != ApiClientError(.invalidMethod, message: "this engine sends no TRACE requests"))
        #expect("\(error)" == "this engine sends no TRACE requests")
        #expect("\(error.code)" == "unsupportedByTransport")
        #expect(Set([ApiClientError.Code.invalidURL, .invalidURL, .invalidHeader]).count == 2)
    }
}
