import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// The mock is shared safely between tasks, while its settings change.
@Suite struct ConcurrencyTests {
    @Test func fiveHundredConcurrentRequestsAreEachRecordedOnce() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.stub(.get, "items/:n", statusCode: 200)
        let count = 500

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask { try await mock.get("items/\(index)").perform().httpResponse.statusCode }
            }
            // Settings change while the requests run; every answer stays a 200.
            group.addTask {
                for round in 0..<100 {
                    mock.resultProvider = { .response($0, statusCode: 200) }
                    mock.stub(.get, "other/\(round)", statusCode: 201)
                    mock.removeAllStubs()
                    mock.resultProvider = nil
                    _ = mock.recordedRequests.count
                }
                return 200
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }

        #expect(statuses.count == count + 1)
        #expect(statuses.allSatisfy { $0 == 200 })
        let recorded = mock.recordedRequests
        #expect(recorded.count == count)
        let indices = recorded.compactMap { Int($0.url.lastPathComponent) }
        #expect(indices.sorted() == Array(0..<count))
        #expect(Set(recorded.map(\.url)).count == count)
    }
}
