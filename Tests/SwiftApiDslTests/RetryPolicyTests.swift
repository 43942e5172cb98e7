import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import SwiftApiDsl

@Suite struct RetryPolicyTests {
    let now = Date(timeIntervalSince1970: 1_000_000)
    let noJitter = RetryPolicy(maxAttempts: 5, initialDelay: 0.5, multiplier: 2, maxDelay: 3, jitter: 0)

    @Test func backoffGrowsByTheMultiplierUpToTheMaximum() {
        let delays = (1...4).map { noJitter.delay(after: $0, failing: .status(503, retryAfter: nil), method: .get, now: now) }
        #expect(delays == [0.5, 1, 2, 3])
    }

    @Test func noAttemptAfterTheLast() {
        #expect(noJitter.delay(after: 5, failing: .status(503, retryAfter: nil), method: .get, now: now) == nil)
        #expect(RetryPolicy.never.delay(after: 1, failing: .status(503, retryAfter: nil), method: .get, now: now) == nil)
    }

    @Test func jitterShortensTheWaitByUpToItsShare() {
        let policy = RetryPolicy(initialDelay: 2, jitter: 0.5)
        #expect(policy.delay(after: 1, failing: .status(503, retryAfter: nil), method: .get, now: now, random: 0) == 2)
        #expect(policy.delay(after: 1, failing: .status(503, retryAfter: nil), method: .get, now: now, random: 0.5) == 1.5)
        #expect(policy.delay(after: 1, failing: .status(503, retryAfter: nil), method: .get, now: now, random: 0.999_999)! > 1)
    }

    @Test(arguments: [408, 429, 502, 503, 504])
    func transientStatusesAreRetriedByDefault(status: Int) {
        #expect(RetryPolicy.default.delay(after: 1, failing: .status(status, retryAfter: nil), method: .get, now: now, random: 0) == 0.5)
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422, 500, 501])
    func otherStatusesAreNot(status: Int) {
        #expect(RetryPolicy.default.delay(after: 1, failing: .status(status, retryAfter: nil), method: .get, now: now) == nil)
    }

    @Test func idempotentMethodsAreRetriedAndPostOnlyWhenAllowed() {
        let failure = RetryPolicy.Failure.status(503, retryAfter: nil)
        let retried = [HttpMethod.get, .head, .options, .put, .delete, .post, .patch].filter {
            RetryPolicy.default.delay(after: 1, failing: failure, method: $0, now: now) != nil
        }
        #expect(retried == [.get, .head, .options, .put, .delete])
        #expect(RetryPolicy.default.retryingPost().delay(after: 1, failing: failure, method: .post, now: now, random: 0) == 0.5)
    }

    @Test func connectionErrorsAndTimeoutsAreRetriedOtherErrorsAreNot() {
        let retried: [URLError.Code] = [.timedOut, .cannotConnectToHost, .networkConnectionLost]
        for code in retried {
            #expect(RetryPolicy.default.delay(after: 1, failing: .transport(URLError(code)), method: .get, now: now, random: 0) == 0.5)
        }
        for error: Error in [URLError(.cancelled), URLError(.badServerResponse), CancellationError()] {
            #expect(RetryPolicy.default.delay(after: 1, failing: .transport(error), method: .get, now: now) == nil)
        }
    }

    @Test func retryAfterReplacesTheBackoffUpToTheCap() {
        let policy = RetryPolicy(maxRetryAfter: 10)
        #expect(policy.delay(after: 1, failing: .status(429, retryAfter: "7"), method: .get, now: now) == 7)
        let date = "Mon, 12 Jan 1970 13:46:45 GMT" // now + 5 s
        #expect(policy.delay(after: 1, failing: .status(503, retryAfter: date), method: .get, now: now) == 5)
        #expect(policy.delay(after: 1, failing: .status(503, retryAfter: "11"), method: .get, now: now) == nil)
        #expect(policy.delay(after: 1, failing: .status(503, retryAfter: "later"), method: .get, now: now, random: 0) == 0.5)
    }

    @Test func outOfRangeSettingsAreClamped() {
        let policy = RetryPolicy(maxAttempts: 0, initialDelay: -1, multiplier: 0.5, maxDelay: -3, jitter: 7, maxRetryAfter: -2)
        #expect(policy == RetryPolicy(maxAttempts: 1, initialDelay: 0, multiplier: 1, maxDelay: 0, jitter: 1, maxRetryAfter: 0))
    }
}
