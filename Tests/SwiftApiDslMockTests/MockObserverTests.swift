import Foundation
import SwiftApiDsl
import SwiftApiDslMock
import Testing

/// A client's observers keep working when it is mocked, so an app's logging can be tested.
@Suite struct MockObserverTests {
    final class StatusLog: RequestObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        var lines: [String] { lock.withLock { entries } }

        func responseHeadReceived(_ head: ObservedResponseHead) { lock.withLock { entries.append("head \(head.statusCode)") } }
        func requestFinished(_ metrics: RequestMetrics) {
            lock.withLock { entries.append("finished \(metrics.statusCode ?? 0) \(metrics.bytesReceived)") }
        }
    }

    @Test func observersSeeStubbedAnswers() async throws {
        let log = StatusLog()
        let mock = ApiClient(baseUrl: Fixtures.baseUrl).observer(log).mocked()
        try mock.stub(.get, "todos/1", body: ["id": 1], statusCode: 201)
        try await mock.get("todos/1").perform()
        #expect(log.lines == ["head 201", "finished 201 8"])
    }
}
