import Foundation
import Testing
@testable import SwiftApiDsl

/// One exchange's head, body and end against a cancellation, the idle timeout and the size cap,
/// through the public calls: the scripted transport delivers each step when the test says, and
/// the idle timeout fires when the test calls the ticker's check with a time past it. Each
/// request gets an hour of timeout, so the real ticker never fires. `Scripts/tsan` runs it.
@Suite struct ExchangeInterleavingTests {
    private let timedOut = "URLError \(URLError.Code.timedOut.rawValue)"

    /// A call of `get("items")` under an hour of idle timeout, and its exchange once started.
    private func started(_ transport: ScriptedTransport, maxResponseSize: Int? = nil)
        async throws -> (Task<Response<Data>, any Error>, ScriptedExchange) {
        let client = scriptedClient(transport)
        let call = Task { try await client.get("items").timeoutInterval(3_600).maxResponseSize(maxResponseSize).perform() }
        return (call, try await transport.exchange(0))
    }

    /// A call whose exchange has answered 200 and sent `abc`, its reader parked waiting for more.
    private func reading(_ transport: ScriptedTransport, maxResponseSize: Int? = nil)
        async throws -> (Task<Response<Data>, any Error>, ScriptedExchange) {
        let (call, exchange) = try await started(transport, maxResponseSize: maxResponseSize)
        exchange.answer(200)
        exchange.push("abc")
        try await exchange.readerWaits()
        return (call, exchange)
    }

    private func body(of result: Result<Response<Data>, any Error>) -> String? {
        guard case .success(let response) = result else { return nil }
        return String(decoding: response.body, as: UTF8.self)
    }

    // MARK: Head and body against a cancellation

    @Test func cancelledWhileWaitingForTheHeadFailsWithTheCancellationNotTheEnginesError() async throws {
        let transport = ScriptedTransport(onAbort: .failExchange)
        let (call, exchange) = try await started(transport)
        call.cancel()
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(exchange.aborts == ["CancellationError"])
    }

    @Test func cancelledBeforeTheEngineSaidHowToStopStopsItAsSoonAsItDoes() async throws {
        let transport = ScriptedTransport(onAbort: .failExchange, registersAbortLate: true)
        let (call, exchange) = try await started(transport)
        call.cancel()
        #expect(exchange.aborts == [])
        exchange.registerAbort()                           // the abort closure runs at once
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(exchange.aborts == ["CancellationError"])
    }

    @Test func aHeadThatComesAfterTheCancellationIsStillACancellation() async throws {
        // An engine that does not stop when told, and answers in full after the cancellation.
        let transport = ScriptedTransport(onAbort: .ignore)
        let (call, exchange) = try await started(transport)
        call.cancel()
        try await waitUntil("the exchange was aborted") { exchange.control.isAborted }
        exchange.answer(200, body: "complete")
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(exchange.aborts == ["CancellationError"])
    }

    @Test func cancelledWhileTheReaderWaitsForTheBodyFailsWithTheCancellation() async throws {
        let transport = ScriptedTransport(onAbort: .failExchange)
        let (call, exchange) = try await reading(transport)
        call.cancel()
        #expect(cause(of: await call.result) == "CancellationError")
        #expect(exchange.aborts == ["CancellationError"])
    }

    // MARK: The end against the idle timeout

    @Test func aBodyEndedQuietlyByTheTimeoutIsATimeoutNotATruncatedSuccess() async throws {
        let transport = ScriptedTransport(onAbort: .endBodyQuietly)
        let (call, exchange) = try await reading(transport)
        exchange.idleTimeoutFires()
        #expect(cause(of: await call.result) == timedOut)
        #expect(exchange.aborts == ["URLError"])
    }

    @Test func aTimeoutBeforeTheReaderSeesTheEndWinsEvenIfTheEngineDeliversEverything() async throws {
        let transport = ScriptedTransport(onAbort: .ignore)
        let (call, exchange) = try await reading(transport)
        exchange.idleTimeoutFires()
        exchange.push("def")
        exchange.body.finish()
        #expect(cause(of: await call.result) == timedOut)
        #expect(exchange.aborts == ["URLError"])
    }

    @Test func theTimeoutCheckedAfterTheBodyEndedDoesNothing() async throws {
        let transport = ScriptedTransport(onAbort: .failExchange)
        let (call, exchange) = try await started(transport)
        exchange.answer(200, body: "complete")
        #expect(body(of: await call.result) == "complete")
        exchange.idleTimeoutFires()
        #expect(exchange.control.isAborted == false)
        #expect(exchange.aborts == [])
    }

    @Test func anIdleCheckBeforeTheTimeoutHasElapsedDoesNotAbort() async throws {
        let transport = ScriptedTransport(onAbort: .failExchange)
        let (call, exchange) = try await reading(transport)
        exchange.control.checkIdleness(at: DispatchTime.now().uptimeNanoseconds + 3_599 * 1_000_000_000)
        exchange.push("def")
        exchange.body.finish()
        #expect(body(of: await call.result) == "abcdef")
        #expect(exchange.aborts == [])
    }

    @Test func aStreamedBodyHeldUnreadIsNotTimedOutAndTimesOutOnceItIsReadAgain() async throws {
        let transport = ScriptedTransport(onAbort: .failExchange)
        let client = scriptedClient(transport)
        let call = Task { try await client.get("items").timeoutInterval(3_600).stream() }
        let exchange = try await transport.exchange(0)
        exchange.answer(200)
        let response = try await call.value
        exchange.push("abc")
        var chunks = response.body.makeAsyncIterator()
        #expect(try await chunks.next() == Data("abc".utf8))
        // The caller holds the body without asking for a chunk: the idle timeout is paused.
        exchange.idleTimeoutFires()
        #expect(exchange.control.isAborted == false)
        // Asking again restarts it: the same check now aborts the read.
        let timeout = Task {
            try await exchange.readerWaits()
            exchange.idleTimeoutFires()
        }
        let error = await #expect(throws: RequestError.self) { try await chunks.next() }
        try await timeout.value
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(exchange.aborts == ["URLError"])
    }

    // MARK: The size cap

    @Test func aSizeCapCrossedMidBodyAbortsTheExchangeAndFailsAsTooLarge() async throws {
        let transport = ScriptedTransport(onAbort: .failExchange)
        let (call, exchange) = try await reading(transport, maxResponseSize: 5)
        exchange.push("def")
        let result = await call.result
        guard case .failure(let error as RequestError) = result else {
            Issue.record("expected a RequestError, got \(result)")
            return
        }
        #expect(error.underlyingError as? ApiClientError == ApiClientError(.responseTooLarge, message: "response body exceeds the limit of 5 bytes", limit: 5))
        #expect(exchange.aborts == ["CancellationError"])
        exchange.push("late")                              // after the abort: dropped, nobody waits
        #expect(exchange.body.isReaderWaiting == false)
    }

    @Test func aBodyEndingExactlyAtTheSizeCapIsComplete() async throws {
        let transport = ScriptedTransport(onAbort: .failExchange)
        let (call, exchange) = try await reading(transport, maxResponseSize: 5)
        exchange.push("de")
        exchange.body.finish()
        #expect(body(of: await call.result) == "abcde")
        #expect(exchange.aborts == [])
    }

    // MARK: Random races

    @Test(.timeLimit(.minutes(5)))
    func twoHundredRandomRacesOfTheEndWithATimeoutOrACancellationNeverTruncateTheBody() async throws {
        let seed = SeededGenerator.runSeed
        var random = SeededGenerator(seed: seed)
        let behaviours: [ScriptedTransport.AbortBehaviour] = [.failExchange, .endBodyQuietly, .ignore]
        var outcomes: [String: Int] = [:]
        for round in 0..<200 {
            let replay = "round \(round) of seed \(seed) (INTERLEAVING_SEED=\(seed) replays it)"
            let chunks = (0..<Int.random(in: 1...8, using: &random)).map { "\($0)-" }
            let pauses = (0...chunks.count).map { _ in Int.random(in: 0...30, using: &random) }
            // The disruptor sleeps as the engine does, up to a random step, so that it strikes
            // anywhere from the first chunk to after the end, often near the end.
            let disruption = Array(pauses.prefix(Int.random(in: chunks.count / 2...chunks.count + 2, using: &random)))
                + [Int.random(in: 0...40, using: &random)]
            let cancels = Bool.random(using: &random)
            let transport = ScriptedTransport(onAbort: behaviours.randomElement(using: &random)!)
            let (call, exchange) = try await started(transport)
            exchange.answer(200)
            let engine = Thread {
                for (index, chunk) in chunks.enumerated() {
                    jitter(pauses[index])
                    exchange.push(chunk)
                }
                jitter(pauses[chunks.count])
                exchange.body.finish()
            }
            let disruptor = Thread {
                disruption.forEach(jitter)
                if cancels { call.cancel() } else { exchange.idleTimeoutFires() }
            }
            engine.start()
            disruptor.start()
            let result = await call.result
            let outcome = body(of: result) == chunks.joined() ? "complete" : cause(of: result)
            let allowed = ["complete", cancels ? "CancellationError" : timedOut]
            #expect(allowed.contains(outcome), "\(outcome) (body \(body(of: result) ?? "none")): \(replay)")
            outcomes[outcome, default: 0] += 1
            guard allowed.contains(outcome) else { return }
        }
        print("ExchangeInterleavingTests: 200 races, seed \(seed): \(outcomes.sorted { $0.key < $1.key })")
    }
}
