import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslMock

/// `retryPolicy(_:)`: which failures are sent again, how often, and what the caller sees.
@Suite struct RetryTests {
    /// Fast and predictable: 10 ms, 20 ms… without jitter.
    static let quick = RetryPolicy(maxAttempts: 3, initialDelay: 0.01, jitter: 0)

    /// Records the retries observers hear of.
    final class Retries: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [String] = []
        var all: [String] { lock.lock(); defer { lock.unlock() }; return seen }
        func observe(_ event: RequestEvent) {
            guard case .retrying(let attempt, let error, let delay) = event.kind else { return }
            lock.lock(); seen.append("attempt \(attempt) in \(delay) after \(error.statusCode ?? 0)"); lock.unlock()
        }
    }

    /// A mock whose `items` route fails with `failing` statuses first, then answers 200.
    func mock(failing statuses: [Int], headers: [String: String] = [:]) -> ApiClientMock {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        let remaining = Locked(statuses)
        mock.stub(nil, "items") { request in
            let status = remaining.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
            return .response(request.urlRequest, statusCode: status, headers: status == 200 ? [:] : headers)
        }
        mock.appliesValidators = true
        return mock
    }

    @Test func transientStatusesAreRetriedUntilASuccess() async throws {
        let mock = mock(failing: [503, 502])
        let retries = Retries()
        let response = try await mock.client.httpStatusCodeRange().retryPolicy(Self.quick).observer(retries.observe).get("items").perform()
        #expect(response.statusCode == 200)
        #expect(mock.recordedRequests.count == 3)
        #expect(retries.all == ["attempt 2 in 0.01 after 503", "attempt 3 in 0.02 after 502"])
    }

    @Test func theLastErrorSaysHowManyAttemptsWereMade() async throws {
        let mock = mock(failing: [503, 503, 503, 503])
        let error = await #expect(throws: RequestError.self) {
            try await mock.client.httpStatusCodeRange().retryPolicy(Self.quick).get("items").perform()
        }
        #expect(error?.attempts == 3)
        #expect((error?.validationError as? ApiClientError)?.statusCode == 503)
        #expect(error.map { "\($0)" }?.contains("after 3 attempts: status code 503 is outside 200..<300") == true)
        #expect(mock.recordedRequests.count == 3)
    }

    /// A retried status is reported against the range the call set, not a fixed 2xx.
    @Test func aRetriedStatusNamesTheCallersRange() async throws {
        final class Reasons: Sendable {
            let seen = Locked<[String]>([])
            func observe(_ event: RequestEvent) {
                guard case .retrying(_, let error, _) = event.kind else { return }
                seen.withLock { $0.append("\(error.validationError.map { "\($0)" } ?? "none")") }
            }
        }
        let mock = mock(failing: [503])
        let reasons = Reasons()
        let response = try await mock.client.httpStatusCodeRange().retryPolicy(Self.quick).observer(reasons.observe)
            .get("items").httpStatusCodeRange(200..<400).perform()
        #expect(response.statusCode == 200)
        #expect(reasons.seen.withLock { $0 } == ["status code 503 is outside 200..<400"])
    }

    @Test func aFailureThatIsNotTransientIsNotRetried() async throws {
        let mock = mock(failing: [404])
        let error = await #expect(throws: RequestError.self) {
            try await mock.client.httpStatusCodeRange().retryPolicy(Self.quick).get("items").perform()
        }
        #expect(error?.attempts == 1)
        #expect(mock.recordedRequests.count == 1)
    }

    @Test func postIsRetriedOnlyWhenTheCallerSaysSo() async throws {
        let plain = mock(failing: [503])
        let error = await #expect(throws: RequestError.self) {
            try await plain.client.httpStatusCodeRange().retryPolicy(Self.quick).post("items").perform()
        }
        #expect(error?.statusCode == 503)
        #expect(plain.recordedRequests.count == 1)

        let allowed = mock(failing: [503])
        try await allowed.client.httpStatusCodeRange().retryPolicy(Self.quick.retryingPost()).post("items").perform()
        #expect(allowed.recordedRequests.count == 2)
    }

    @Test func retryAfterIsHonouredUpToTheCap() async throws {
        let retries = Retries()
        let honoured = mock(failing: [429], headers: ["Retry-After": "0"])
        try await honoured.client.retryPolicy(Self.quick).observer(retries.observe).get("items").perform()
        #expect(retries.all == ["attempt 2 in 0.0 after 429"])

        let tooLong = mock(failing: [429], headers: ["Retry-After": "120"])
        let response = try await tooLong.client.retryPolicy(RetryPolicy(maxRetryAfter: 60)).get("items").perform()
        #expect(response.statusCode == 429)
        #expect(tooLong.recordedRequests.count == 1)
    }

    @Test func transportErrorsAreRetried() async throws {
        let mock = ApiClientMock(baseUrl: Fixtures.baseUrl)
        let failures = Locked(1)
        mock.resultProvider = { request in
            let fail = failures.withLock { count in defer { count -= 1 }; return count > 0 }
            return fail ? .failure(.transport(request, URLError(.networkConnectionLost))) : .response(request, statusCode: 200)
        }
        let response = try await mock.client.retryPolicy(Self.quick).get("items").perform()
        #expect(response.statusCode == 200)
        #expect(mock.recordedRequests.count == 2)
    }

    @Test func modifiersRunOnceForAllAttempts() async throws {
        let mock = mock(failing: [503, 503])
        let runs = Locked(0)
        try await mock.client.retryPolicy(Self.quick)
            .get("items")
            .modifier { request in
                let run = runs.withLock { count in count += 1; return count }
                request.setValue("key-\(run)", forHTTPHeaderField: "Idempotency-Key")
            }
            .perform()
        #expect(runs.withLock { $0 } == 1)
        #expect(mock.recordedRequests.map { $0.header("Idempotency-Key") } == ["key-1", "key-1", "key-1"])
    }

    @Test func aRequestOverridesItsClientsPolicy() async throws {
        let mock = mock(failing: [503])
        let response = try await mock.client.retryPolicy(Self.quick).get("items").retryPolicy(.never).perform()
        #expect(response.statusCode == 503)
        #expect(mock.recordedRequests.count == 1)
    }

    @Test func cancellingDuringTheWaitEndsTheCallAtOnce() async throws {
        let mock = mock(failing: [503])
        let client = mock.client.retryPolicy(RetryPolicy(initialDelay: 600, jitter: 0))
        let task = Task { try await client.get("items").perform() }
        while mock.recordedRequests.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else { Issue.record("the call succeeded"); return }
        #expect(error.asRequestError.isCancellation)
        #expect(mock.recordedRequests.count == 1)
    }
}
