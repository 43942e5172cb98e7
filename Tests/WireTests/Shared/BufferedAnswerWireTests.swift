import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// A buffered call (a `perform()` into memory with no progress, no size cap and no observer) may
/// get its head and whole body in one hand-over (`ExchangeControl.isBuffered`): the URLSession
/// transport sends it with one `data(for:)`. Whatever the caller sees stays as on the per-chunk
/// path, which `Scripts/test` runs this suite (and every other wire suite) over too, with
/// `SWIFTAPIDSL_PER_CHUNK=1`.
@Suite struct BufferedAnswerWireTests {
    /// The test server's `/sized` body of `count` bytes.
    static func sized(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }

    @Test(arguments: [0, 1, 262_144, 1_048_576], ["length", "chunked"])
    func bodiesOfEverySizeArriveWhole(bytes: Int, framing: String) async throws {
        let data: Data = try await TestServer.client().get("sized")
            .queryItems(["bytes": "\(bytes)", "framing": framing])
            .perform()
        #expect(data == Self.sized(bytes))
    }

    @Test func everyWayOfReadingABodyGetsTheSameBytes() async throws {
        let request = try TestServer.client().get("sized").queryItems(["bytes": "300000", "framing": "chunked"])
        let progress = ProgressLog()
        let whole: Data = try await request.perform()                                      // buffered
        let capped: Data = try await request.maxResponseSize(1 << 20).perform()             // chunk by chunk
        let followed: Data = try await request.downloadProgress { progress.note($0.completedBytes) }.perform()
        #expect(whole == Self.sized(300_000))
        #expect(capped == whole)
        #expect(followed == whole)
        #expect(progress.last == 300_000)
    }

    /// The challenge's answer a 401 carries, and what a client sees of it, on every path.
    struct Challenge: Decodable, Equatable {
        let detail: String
    }

    @Test(arguments: [HttpMethod.get, .post, .head])
    func aChallenged401ArrivesWithItsBody(method: HttpMethod) async throws {
        let key = UUID().uuidString
        let body: [String: Int]? = method == .post ? ["a": 1] : nil
        let response: Response<Data> = try await TestServer.client()
            .request(method, "challenge/\(key)", bypassAuth: false, body: body, jsonEncoder: nil)
            .perform()
        #expect(response.statusCode == 401)
        #expect(response.headerFields["WWW-Authenticate"] == "Basic realm=\"challenge\"")
        if method == .head {
            #expect(response.body.isEmpty)
        } else {
            #expect(try JSONDecoder().decode(Challenge.self, from: response.body) == Challenge(detail: "sign in"))
        }
    }

    @Test func aChallenged401WithAnEmptyBodyIsSentOnce() async throws {
        let key = UUID().uuidString
        let client = try TestServer.client()
        let response: Response<Data> = try await client.get("challenge/\(key)")
            .queryItems(["empty": "1"]).perform()
        #expect(response.statusCode == 401)
        #expect(response.body.isEmpty)
        #expect(try await client.get("challenge-stats/\(key)").perform(as: ChallengeStats.self) == ChallengeStats(requests: 1))
    }

    @Test func aChallenged401ToACallWithCredentialsIsSentOnce() async throws {
        let key = UUID().uuidString
        let client = try TestServer.client()
        let error = await #expect(throws: RequestError.self) {
            try await client.httpStatusCodeRange().get("challenge/\(key)").basic(userId: "u", password: "p").perform()
        }
        #expect(error?.statusCode == 401)
        #expect(try await client.get("challenge-stats/\(key)").perform(as: ChallengeStats.self) == ChallengeStats(requests: 1))
    }

    struct ChallengeStats: Decodable, Equatable {
        let requests: Int
    }

    @Test func aSizeCapStillStopsAChunkedBodyPastIt() async throws {
        let error = await #expect(throws: RequestError.self) {
            let _: Data = try await TestServer.client().get("sized")
                .queryItems(["bytes": "100000", "framing": "chunked"])
                .maxResponseSize(1000)
                .perform()
        }
        #expect(error?.underlyingError is ResponseTooLargeError)
    }

}

/// The buffered path's timing: idle timeouts (a whole number of seconds is URLSession's own timer
/// there, a fraction the pipeline's), cancellation, and an observed call's head time. Run one test
/// at a time, with the other timing suites (`Scripts/test`): on a loaded machine the per-chunk
/// path notes the head only when the woken task runs.
@Suite struct BufferedAnswerTimingWireTests {
    @Test(.timeLimit(.minutes(1)), arguments: [0.5, 1])
    func aStallMidBodyTimesOut(after interval: TimeInterval) async throws {
        // The head and half the body arrive, then nothing for 10 s: the idle timeout fires
        // mid-body, whichever timer keeps it.
        let (result, elapsed) = await measure {
            await Result {
                let _: Data = try await TestServer.client().get("sized")
                    .queryItems(["bytes": "1000", "stall": "10000"])
                    .timeoutInterval(interval)
                    .perform()
            }
        }
        #expect(elapsed >= interval * 0.9)
        guard case .failure(let error) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect((error.asRequestError.underlyingError as? URLError)?.code == .timedOut)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingMidBodyEndsAsCancellation() async throws {
        let client = try TestServer.client()
        let (error, _) = try await cancelled(after: 0.5) {
            let _: Data = try await client.get("sized").queryItems(["bytes": "1000", "stall": "10000"]).perform()
        }
        #expect(error?.asRequestError.isCancellation == true)
        #expect(error?.asRequestError.stage == "transport")
    }

    @Test(.timeLimit(.minutes(1)))
    func timeToFirstByteIsWhenTheHeadArrivedNotTheBody() async throws {
        // The head comes at once, the second half of the body 2 s later: the head's time is
        // before those 2 s (an observed call is never buffered, so it sees the head arrive).
        let recorder = ObserverWireTests.Recorder()
        let _: Data = try await TestServer.client().observer(recorder).get("sized")
            .queryItems(["bytes": "1000", "stall": "2000"])
            .perform()
        #expect(recorder.lines == ["prepared /sized", "head 200", "finished ok"])
        let metrics = try #require(recorder.metrics)
        let firstByte = try #require(metrics.timeToFirstByte)
        #expect(metrics.totalDuration - firstByte >= 1.5)
        #expect(metrics.bytesReceived == 1000)
    }
}

/// The progress values a handler saw. (`Locked` is package-internal.)
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int64] = []
    func note(_ value: Int64) { lock.withLock { values.append(value) } }
    var last: Int64? { lock.withLock { values.last } }
}
