import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// Cancellation of the calling task is honoured, during a simulated latency too.
@Suite struct CancellationAndLatencyTests {
    @Test func requestOfACancelledTaskFailsAsCancellation() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await mock.get("todos").perform()
        }
        let error = await #expect(throws: RequestError.self) { try await task.value }
        #expect(error?.isCancellation == true)
        #expect(error?.stage == "transport")
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellationEndsALatencyAtOnce() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.latency = 3600
        let task = Task { try await mock.get("slow").perform() }
        while mock.recordedRequests.isEmpty { await Task.yield() }
        task.cancel()

        let error = await #expect(throws: RequestError.self) { try await task.value }
        #expect(error?.isCancellation == true)
        #expect(mock.recordedRequests.map(\.path) == ["slow"])
    }

    @Test func requestWithLatencyIsAnsweredAfterIt() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.latency = 0.001
        #expect(mock.latency == 0.001)
        mock.stub(.get, "todos", statusCode: 204)
        #expect(try await mock.get("todos").perform().httpResponse.statusCode == 204)
    }

    @Test func negativeLatencyMeansNone() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        mock.latency = -5
        #expect(try await mock.get("todos").perform().httpResponse.statusCode == 200)
    }
}
