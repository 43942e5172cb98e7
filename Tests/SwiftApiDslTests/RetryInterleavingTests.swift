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
    private final class Retries: Sendable {
        private let seen = Locked<[String]>([])
        var all: [String] { seen.withLock { $0 } }
        func observe(_ event: RequestEvent) {
            guard case .retrying(let attempt, _, let delay) = event.kind else { return }
            seen.withLock { $0.append("attempt \(attempt) in \(Int(delay)) s") }
        }
    }

    /// A call of `get("items")` under `policy` through a scripted transport, heard by `retries`.
    private func call(policy: RetryPolicy, onAbort: ScriptedTransport.AbortBehaviour = .failExchange)
        -> (Task<Response<Data>, any Error>, ScriptedTransport, Retries) {
        let transport = ScriptedTransport(onAbort: onAbort)
        let retries = Retries()
        let client = scriptedClient(transport).observer(retries.observe)
        let call = Task { try await client.get("items").timeoutInterval(3_600).retryPolicy(policy).perform() }
        return (call, transport, retries)
    }

    /// Cancels `call` once `retries` has heard of a retry: it ends as a cancellation after one attempt.
    private func cancelDuringTheWait(_ call: Task<Response<Data>, any Error>, transport: ScriptedTransport,
                                     retries: Retries, announced: String) async throws {
        try await waitUntil("the retry was announced") { !retries.all.isEmpty }
        call.cancel()
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(retries.all == [announced])
        #expect(transport.count == 1)
    }

    @Test func cancelledDuringTheWaitAfterAFailedAttemptEndsAtOnceWithoutAnotherAttempt() async throws {
        let (call, transport, retries) = call(policy: hourly)
        try await transport.exchange(0).answer(503, body: "busy")
        try await cancelDuringTheWait(call, transport: transport, retries: retries, announced: "attempt 2 in 3600 s")
    }

    @Test func aRetryAfterWaitIsCutShortByACancellation() async throws {
        let (call, transport, retries) = call(policy: RetryPolicy(maxAttempts: 3, initialDelay: 0, jitter: 0, maxRetryAfter: 7_200))
        try await transport.exchange(0).answer(429, body: "slow down", headerFields: ["Retry-After": "3600"])
        try await cancelDuringTheWait(call, transport: transport, retries: retries, announced: "attempt 2 in 3600 s")
    }

    @Test func cancelledDuringAnAttemptIsNotRetriedThoughTheEnginesOwnErrorWouldBe() async throws {
        // The engine fails the aborted exchange with `.networkConnectionLost`, which the policy
        // retries: the caller sees the cancellation, and nothing is sent again.
        let (call, transport, retries) = call(policy: hourly, onAbort: .failExchange)
        let exchange = try await transport.exchange(0)
        call.cancel()
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(exchange.aborts == ["CancellationError"])
        #expect(retries.all == [])
        #expect(transport.count == 1)
    }

    @Test func cancelledDuringAnAttemptThatStillAnswersARetryableStatusIsNotRetried() async throws {
        let (call, transport, retries) = call(policy: hourly, onAbort: .ignore)
        let exchange = try await transport.exchange(0)
        call.cancel()
        try await waitUntil("the exchange was aborted") { exchange.control.isAborted }
        exchange.answer(503, body: "busy")
        #expect(cause(of: await call.result) == "CancellationError")
        // No retry is announced for a call that was cancelled already.
        #expect(retries.all == [])
        #expect(transport.count == 1)
    }

    @Test func cancelledDuringAWaitAfterTwoAttemptsCountsThem() async throws {
        let (call, transport, retries) = call(policy: RetryPolicy(maxAttempts: 3, initialDelay: 0, jitter: 0, maxRetryAfter: 7_200))
        try await transport.exchange(0).answer(503, body: "busy")
        try await transport.exchange(1).answer(503, body: "busy", headerFields: ["Retry-After": "3600"])
        try await waitUntil("the second retry was announced") { retries.all.count == 2 }
        call.cancel()
        let result = await call.result
        #expect(cause(of: result) == "CancellationError")
        if case .failure(let error as RequestError) = result {
            #expect(error.attempts == 2)
            #expect(error.description.contains("after 2 attempts"))
        }
        #expect(retries.all == ["attempt 2 in 0 s", "attempt 3 in 3600 s"])
        #expect(transport.count == 2)
    }

    @Test func cancelledDuringTheSecondAttemptEndsItAndCountsBothAttempts() async throws {
        let (call, transport, retries) = call(policy: RetryPolicy(maxAttempts: 3, initialDelay: 0, jitter: 0))
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
