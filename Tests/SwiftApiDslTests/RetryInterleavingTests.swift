import Foundation
import Testing
@testable import SwiftApiDsl

/// A retried request against a cancellation: during an attempt, during the wait after one, and
/// during a wait a `Retry-After` asked for. The waits are an hour long, so a call that did not
/// end at once would reach the time limit; the cancellation comes once an observer has heard
/// of the retry, or once the attempt has reached the transport. `Scripts/tsan` runs it.
@Suite(.timeLimit(.minutes(1))) struct RetryInterleavingTests {
    /// Three attempts an hour apart.
    private let hourly = RetryPolicy(maxAttempts: 3, initialDelay: 3_600, maxDelay: 3_600, jitter: 0)

    /// The retries observers hear of, as `attempt <n> in <delay> s`.
    private final class Retries: RequestObserver {
        private let seen = Locked<[String]>([])
        var all: [String] { seen.withLock { $0 } }
        func requestRetrying(_ retry: ObservedRetry) {
            seen.withLock { $0.append("attempt \(retry.attempt) in \(Int(retry.delay)) s") }
        }
    }

    /// A call of `get("items")` under `policy`, heard by `retries`.
    private func call(_ transport: ScriptedTransport, policy: RetryPolicy, retries: Retries) -> Task<Response<Data>, any Error> {
        let client = scriptedClient(transport).observer(retries)
        return Task { try await client.get("items").timeoutInterval(3_600).retryPolicy(policy).perform() }
    }

    @Test func cancelledDuringTheWaitAfterAFailedAttemptEndsAtOnceWithoutAnotherAttempt() async throws {
        let transport = ScriptedTransport()
        let retries = Retries()
        let call = call(transport, policy: hourly, retries: retries)
        try await transport.exchange(0).answer(503, body: "busy")
        try await waitUntil("the retry was announced") { !retries.all.isEmpty }
        call.cancel()
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(retries.all == ["attempt 2 in 3600 s"])
        #expect(transport.count == 1)
    }

    @Test func aRetryAfterWaitIsCutShortByACancellation() async throws {
        let transport = ScriptedTransport()
        let retries = Retries()
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: 0, jitter: 0, maxRetryAfter: 7_200)
        let call = call(transport, policy: policy, retries: retries)
        try await transport.exchange(0).answer(429, body: "slow down", headerFields: ["Retry-After": "3600"])
        try await waitUntil("the retry was announced") { !retries.all.isEmpty }
        call.cancel()
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(retries.all == ["attempt 2 in 3600 s"])
        #expect(transport.count == 1)
    }

    @Test func cancelledDuringAnAttemptIsNotRetriedThoughTheEnginesOwnErrorWouldBe() async throws {
        // The engine fails the aborted exchange with `.networkConnectionLost`, which the policy
        // retries: the caller sees the cancellation, and nothing is sent again.
        let transport = ScriptedTransport(onAbort: .failExchange)
        let retries = Retries()
        let call = call(transport, policy: hourly, retries: retries)
        let exchange = try await transport.exchange(0)
        call.cancel()
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(exchange.aborts == ["CancellationError"])
        #expect(retries.all == [])
        #expect(transport.count == 1)
    }

    @Test func cancelledDuringAnAttemptThatStillAnswersARetryableStatusIsNotRetried() async throws {
        let transport = ScriptedTransport(onAbort: .ignore)
        let retries = Retries()
        let call = call(transport, policy: hourly, retries: retries)
        let exchange = try await transport.exchange(0)
        call.cancel()
        try await waitUntil("the exchange was aborted") { exchange.control.isAborted }
        exchange.answer(503, body: "busy")
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(retries.all == [])
        #expect(transport.count == 1)
    }

    @Test func cancelledDuringTheSecondAttemptEndsItAndCountsBothAttempts() async throws {
        let transport = ScriptedTransport(onAbort: .failExchange)
        let retries = Retries()
        let call = call(transport, policy: RetryPolicy(maxAttempts: 3, initialDelay: 0, jitter: 0), retries: retries)
        try await transport.exchange(0).answer(503, body: "busy")
        let second = try await transport.exchange(1)
        call.cancel()
        let result = await call.result
        #expect(cause(of: result) == "CancellationError")
        if case .failure(let error as RequestError) = result { #expect(error.attempts == 2) }
        #expect(second.aborts == ["CancellationError"])
        #expect(retries.all == ["attempt 2 in 0 s"])
        #expect(transport.count == 2)
    }
}
