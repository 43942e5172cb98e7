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
        let delays = (1...4).map { noJitter.delay(after: $0, method: .get, now: now, failing: .status(503, retryAfter: nil)) }
        #expect(delays == [0.5, 1, 2, 3])
    }

    @Test func noAttemptAfterTheLast() {
        #expect(noJitter.delay(after: 5, method: .get, now: now, failing: .status(503, retryAfter: nil)) == nil)
        #expect(RetryPolicy.never.delay(after: 1, method: .get, now: now, failing: .status(503, retryAfter: nil)) == nil)
    }

    @Test func jitterShortensTheWaitByUpToItsShare() {
        let policy = RetryPolicy(initialDelay: 2, jitter: 0.5)
        #expect(policy.delay(after: 1, method: .get, now: now, random: 0, failing: .status(503, retryAfter: nil)) == 2)
        #expect(policy.delay(after: 1, method: .get, now: now, random: 0.5, failing: .status(503, retryAfter: nil)) == 1.5)
        #expect(policy.delay(after: 1, method: .get, now: now, random: 0.999_999, failing: .status(503, retryAfter: nil))! > 1)
    }

    @Test(arguments: [408, 429, 502, 503, 504])
    func transientStatusesAreRetriedByDefault(status: Int) {
        #expect(RetryPolicy.default.delay(after: 1, method: .get, now: now, random: 0, failing: .status(status, retryAfter: nil)) == 0.5)
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422, 500, 501])
    func otherStatusesAreNot(status: Int) {
        #expect(RetryPolicy.default.delay(after: 1, method: .get, now: now, failing: .status(status, retryAfter: nil)) == nil)
    }

    @Test func idempotentMethodsAreRetriedAndPostOnlyWhenAllowed() {
        let failure = RetryPolicy.Failure.status(503, retryAfter: nil)
        let retried = [HttpMethod.get, .head, .options, .put, .delete, .post, .patch].filter {
            RetryPolicy.default.delay(after: 1, method: $0, now: now, failing: failure) != nil
        }
        #expect(retried == [.get, .head, .options, .put, .delete])
        #expect(RetryPolicy.default.retryingPost().delay(after: 1, method: .post, now: now, random: 0, failing: failure) == 0.5)
    }

    @Test func connectionErrorsAndTimeoutsAreRetriedOtherErrorsAreNot() {
        let retried: [URLError.Code] = [.timedOut, .cannotConnectToHost, .networkConnectionLost]
        for code in retried {
            #expect(RetryPolicy.default.delay(after: 1, method: .get, now: now, random: 0, failing: .transport(URLError(code))) == 0.5)
        }
        for error: Error in [URLError(.cancelled), URLError(.badServerResponse), CancellationError()] {
            #expect(RetryPolicy.default.delay(after: 1, method: .get, now: now, failing: .transport(error)) == nil)
        }
    }

    @Test func retryAfterReplacesTheBackoffUpToTheCap() {
        let policy = RetryPolicy(maxRetryAfter: 10)
        #expect(policy.delay(after: 1, method: .get, now: now, failing: .status(429, retryAfter: "7")) == 7)
        let date = "Mon, 12 Jan 1970 13:46:45 GMT" // now + 5 s
        #expect(policy.delay(after: 1, method: .get, now: now, failing: .status(503, retryAfter: date)) == 5)
        #expect(policy.delay(after: 1, method: .get, now: now, failing: .status(503, retryAfter: "11")) == nil)
        #expect(policy.delay(after: 1, method: .get, now: now, random: 0, failing: .status(503, retryAfter: "later")) == 0.5)
    }

    @Test func outOfRangeSettingsAreClamped() {
        let policy = RetryPolicy(maxAttempts: 0, initialDelay: -1, multiplier: 0.5, maxDelay: -3, jitter: 7, maxRetryAfter: -2)
        #expect(policy == RetryPolicy(maxAttempts: 1, initialDelay: 0, multiplier: 1, maxDelay: 0, jitter: 1, maxRetryAfter: 0))
    }
}
