#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Many requests cancelled at random moments (before sending, while waiting for the head, in the
/// middle of the body, after the end) leave the engine healthy: every call ends, either with its
/// answer or as a cancellation, and the client keeps working afterwards.
@Suite struct CancellationStormWireTests {
    /// How one call of the storm ended.
    enum Outcome: Sendable, Equatable {
        case answered
        case cancelled
        case unexpected(String)
    }

    static let requests = 2_000
    static let inFlight = 50

    /// The test server's `/slow` answers its head after 10 ms and ends its body 10 ms later; each
    /// call is cancelled after 0 to 60 ms, so some are cancelled at once, some mid-answer, and
    /// (on a machine that is not too busy) some not before they succeed.
    @Test(.timeLimit(.minutes(2)))
    func twoThousandRequestsCancelledAtRandomAllEndAndTheClientStillWorks() async throws {
        let client = try TestServer.client()
        let (outcomes, elapsed) = await measure {
            await withTaskGroup(of: Outcome.self, returning: [Outcome].self) { group in
                var outcomes: [Outcome] = []
                for index in 0..<Self.requests {
                    if index >= Self.inFlight, let outcome = await group.next() { outcomes.append(outcome) }
                    group.addTask { await Self.callAndCancel(client, after: UInt64.random(in: 0...60)) }
                }
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
        }

        #expect(outcomes.count == Self.requests)
        let unexpected = outcomes.filter { if case .unexpected = $0 { true } else { false } }
        #expect(unexpected.isEmpty, "\(unexpected.count) calls ended otherwise, first: \(String(describing: unexpected.first))")
        // How many were answered and how many cancelled depends on the machine's load (a busy
        // one answers none before its cancel): only that each ended one of those two ways counts.
        // A hang check, not a speed test: on an idle machine the storm takes a few seconds.
        #expect(elapsed < 60)

        let response = try await client.get("slow").perform()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "slow-answer\n")
    }

    /// Starts one call of `/slow`, cancels it after `milliseconds`, and says how it ended.
    static func callAndCancel(_ client: ApiClient, after milliseconds: UInt64) async -> Outcome {
        let call = Task { try await client.get("slow").queryItems(["head": "10", "body": "10"]).perform() }
        try? await Task.sleep(nanoseconds: milliseconds * 1_000_000)
        call.cancel()
        switch await call.result {
        case .success(let response):
            let body = String(decoding: response.body, as: UTF8.self)
            return response.statusCode == 200 && body == "slow-answer\n" ? .answered : .unexpected("\(response.statusCode) \(body)")
        case .failure(let error):
            return error.asRequestError.isCancellation ? .cancelled : .unexpected("\(error)")
        }
    }
}
#endif
