#if AsyncHTTPClient
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient

/// A small answer reaches the caller whole, in one hand-over: its head waits for its body
/// (an announced length of at most 64 KiB). The test server sends the head and half of the body,
/// then the rest once the test opens a gate or the gate's wait runs out; a middleware opens the
/// gate as soon as it holds the head, and the server tells which came first.
@Suite struct SmallAnswerTests {
    /// Sends a gated answer of `bytes`, opening the gate as soon as the head is in hand, and returns
    /// the body and how the server's gate went (`opened` by the caller, or `waited` out).
    /// With `streamed`, the call takes the body as it arrives (`stream()`).
    private func gatedCall(_ path: String = "sized", bytes: Int, gateWait: Double, streamed: Bool = false) async throws -> (body: Data, gate: String) {
        let key = UUID().uuidString
        let opener = Middleware("opens the gate") { request, next in
            let response = try await next(request)
            _ = try await TestServer.client().post("gate/\(key)").perform()
            return response
        }
        let call = ApiClient(asyncHTTPClient: .shared, baseUrl: try TestServer.url())
            .middleware(opener)
            .get(path)
            .queryItems(["bytes": "\(bytes)", "gate": key, "gatewait": "\(gateWait)"])
        var body = Data()
        if streamed {
            for try await chunk in try await call.stream().body { body.append(chunk) }
        } else {
            body = try await call.perform().body
        }
        let gate = try await TestServer.client().get("gate/\(key)").perform()
        return (body, String(decoding: gate.body, as: UTF8.self))
    }

    @Test func aSmallAnswersHeadComesWithItsWholeBody() async throws {
        let answer = try await gatedCall(bytes: 1000, gateWait: 1)
        #expect(answer.body == Data((0..<1000).map { UInt8($0 % 251) }))
        // The head could not be had before the body was whole: the gate was never opened.
        #expect(answer.gate == "waited")
    }

    @Test func aSmallAnswersHeadComesAtOnceToACallThatTakesTheBodyAsItArrives() async throws {
        // The engine reads `takesBodyAsItArrives` from the exchange's control: a stream's head is
        // never held, so the gate was opened before the second half of the body was sent.
        let answer = try await gatedCall(bytes: 1000, gateWait: 10, streamed: true)
        #expect(answer.body == Data((0..<1000).map { UInt8($0 % 251) }))
        #expect(answer.gate == "opened")
    }

    @Test(arguments: [true, false])
    func theTransportCalledDirectlyHoldsTheHeadOnlyWhenItsControlSaysSo(takesBodyAsItArrives: Bool) async throws {
        // The public `ExchangeControl(takesBodyAsItArrives:)` is all an engine's own test needs:
        // with `true` the head comes before the gate is opened; with `false` it waits for the whole
        // small body, so the gate's wait runs out first.
        let key = UUID().uuidString
        let request = try await TestServer.client().get("sized")
            .queryItems(["bytes": "1000", "gate": key, "gatewait": takesBodyAsItArrives ? "10" : "1"])
            .urlRequest()
        let response = try await AsyncHTTPClientTransport.shared.send(TransportRequest(urlRequest: request),
                                                                      control: ExchangeControl(takesBodyAsItArrives: takesBodyAsItArrives))
        _ = try await TestServer.client().post("gate/\(key)").perform()
        var body = Data()
        for try await chunk in response.body { body.append(chunk) }
        let gate = try await TestServer.client().get("gate/\(key)").perform()
        #expect(response.statusCode == 200)
        #expect(body == Data((0..<1000).map { UInt8($0 % 251) }))
        #expect(String(decoding: gate.body, as: UTF8.self) == (takesBodyAsItArrives ? "opened" : "waited"))
    }

    @Test func aLargerAnswersHeadComesAtOnce() async throws {
        let answer = try await gatedCall(bytes: 100_000, gateWait: 10)
        #expect(answer.body == Data((0..<100_000).map { UInt8($0 % 251) }))
        #expect(answer.gate == "opened")
    }

    @Test func aSmallAnswerThatDecompressesBeyondTheHeldBoundHandsItsHeadOverThen() async throws {
        // 3 MiB of zeros, a few KiB gzipped: held by its length. The first half of those KiB
        // decompresses far beyond the held bound (64 KiB), so the head goes to the caller then,
        // while the rest is still behind the gate, instead of after the whole body was gathered.
        let answer = try await gatedCall("gzipped", bytes: 3 << 20, gateWait: 10)
        #expect(answer.gate == "opened")
        #expect(answer.body == Data(count: 3 << 20))
    }

    @Test(.timeLimit(.minutes(1))) func aSmallAnswerThatDecompressesBeyondTheQueueIsReadWhole() async throws {
        // 3 MiB of zeros, a few KiB gzipped: held by its length, it outgrows the held bound once
        // decompressed; what was gathered then goes to the queue, the head to its reader, and the
        // rest is read as it comes, all of it in order.
        let response = try await ApiClient(asyncHTTPClient: .shared, baseUrl: try TestServer.url())
            .timeoutInterval(20)
            .get("gzipped").queryItems(["bytes": "\(3 << 20)"])
            .perform()
        #expect(response.body == Data(count: 3 << 20))
    }

    @Test func aHeldBodyThatStallsIsTimedOutFromItsLastBytes() async throws {
        // Half the body, then nothing for 3 s: the idle timeout of 1 s ends the call, as it
        // would for a body handed over part by part.
        let error = await #expect(throws: RequestError.self) {
            try await ApiClient(asyncHTTPClient: .shared, baseUrl: try TestServer.url())
                .timeoutInterval(1)
                .get("sized").queryItems(["bytes": "1000", "stall": "3000"])
                .perform()
        }
        guard case .transport(_, let cause)? = error else { Issue.record("expected .transport, got \(String(describing: error))"); return }
        #expect((cause as? URLError)?.code == .timedOut)
    }
}
#endif
