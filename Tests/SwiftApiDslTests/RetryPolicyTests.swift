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
        let delays = (1...4).map { noJitter.delay(after: $0, method: .get, now: now, failing: .status(503, serverDelay: nil)) }
        #expect(delays == [0.5, 1, 2, 3])
    }

    @Test func noAttemptAfterTheLast() {
        #expect(noJitter.delay(after: 5, method: .get, now: now, failing: .status(503, serverDelay: nil)) == nil)
        #expect(RetryPolicy.never.delay(after: 1, method: .get, now: now, failing: .status(503, serverDelay: nil)) == nil)
    }

    @Test func jitterShortensTheWaitByUpToItsShare() {
        let policy = RetryPolicy(initialDelay: 2, jitter: 0.5)
        #expect(policy.delay(after: 1, method: .get, now: now, random: 0, failing: .status(503, serverDelay: nil)) == 2)
        #expect(policy.delay(after: 1, method: .get, now: now, random: 0.5, failing: .status(503, serverDelay: nil)) == 1.5)
        #expect(policy.delay(after: 1, method: .get, now: now, random: 0.999_999, failing: .status(503, serverDelay: nil))! > 1)
    }

    @Test(arguments: [408, 429, 502, 503, 504])
    func transientStatusesAreRetriedByDefault(status: Int) {
        #expect(RetryPolicy.default.delay(after: 1, method: .get, now: now, random: 0, failing: .status(status, serverDelay: nil)) == 0.5)
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422, 500, 501])
    func otherStatusesAreNot(status: Int) {
        #expect(RetryPolicy.default.delay(after: 1, method: .get, now: now, failing: .status(status, serverDelay: nil)) == nil)
    }

    @Test func idempotentMethodsAreRetriedAndPostOnlyWhenAllowed() {
        let failure = RetryPolicy.Failure.status(503, serverDelay: nil)
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

    @Test func theServersWaitReplacesTheBackoffUpToTheCap() {
        let policy = RetryPolicy(maxRetryAfter: 10)
        #expect(policy.delay(after: 1, method: .get, now: now, failing: .status(429, serverDelay: 7)) == 7)
        #expect(policy.delay(after: 1, method: .get, now: now, failing: .status(503, serverDelay: 11)) == nil)
        #expect(policy.delay(after: 1, method: .get, now: now, failing: .status(503, serverDelay: -3)) == 0)
        #expect(policy.delay(after: 1, method: .get, now: now, random: 0, failing: .status(503, serverDelay: nil)) == 0.5)
    }

    /// Unset, the server's wait is `Retry-After`, in seconds or as a date; set, it is read
    /// wherever the closure reads it, and the header is not.
    @Test func theServersWaitIsRetryAfterUnlessReadElsewhere() throws {
        func response(_ headers: [String: String], body: String = "") throws -> Response<Data> {
            let url = URL(string: "https://example.com/sync")!
            return Response(body: Data(body.utf8), httpResponse: try #require(HTTPURLResponse(url: url, statusCode: 429, httpVersion: nil, headerFields: headers)))
        }
        let policy = RetryPolicy()
        #expect(policy.serverDelay(of: try response(["Retry-After": "7"]), now: now) == 7)
        #expect(policy.serverDelay(of: try response(["Retry-After": "Mon, 12 Jan 1970 13:46:45 GMT"]), now: now) == 5) // now + 5 s
        #expect(policy.serverDelay(of: try response(["Retry-After": "later"]), now: now) == nil)
        var matrix = policy
        matrix.serverDelay = { response in
            struct Limited: Decodable { let retry_after_ms: Int }
            return (try? JSONDecoder().decode(Limited.self, from: response.body)).map { Double($0.retry_after_ms) / 1000 }
        }
        #expect(matrix.serverDelay(of: try response(["Retry-After": "7"], body: #"{"retry_after_ms": 1500}"#), now: now) == 1.5)
        #expect(matrix.serverDelay(of: try response(["Retry-After": "7"]), now: now) == nil)
    }

    @Test func outOfRangeSettingsAreClamped() {
        let policy = RetryPolicy(maxAttempts: 0, initialDelay: -1, multiplier: 0.5, maxDelay: -3, jitter: 7, maxRetryAfter: -2)
        let clamped: [Double] = [Double(policy.maxAttempts), policy.initialDelay, policy.multiplier, policy.maxDelay, policy.jitter,
                                 policy.maxRetryAfter]
        #expect(clamped == [1, 0, 1, 0, 1, 0])
    }
}
