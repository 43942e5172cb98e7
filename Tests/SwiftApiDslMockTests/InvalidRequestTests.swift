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
        #expect(cause is InvalidRequestError)
        #expect(mock.recordedRequests.isEmpty)
    }
}
