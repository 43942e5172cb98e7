#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// What happens when a body stalls after its head: the idle timeout fires mid-body (a whole
/// number of seconds or a fraction), cancelling ends the call as a cancellation, and an observed
/// call's head time is the head's, not the body's end. Run one test at a time, with the other
/// timing suites (`Scripts/test`): on a loaded machine the head is noted only when the woken task runs.
@Suite struct MidBodyTimingWireTests {
    @Test(.timeLimit(.minutes(1)), arguments: [0.5, 1])
    func aStallMidBodyTimesOut(after interval: TimeInterval) async throws {
        // The head and half the body arrive, then nothing for 10 s.
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
        // before those 2 s.
        let recorder = ObserverWireTests.Recorder()
        let _: Data = try await TestServer.client().observer(recorder.observe).get("sized")
            .queryItems(["bytes": "1000", "stall": "2000"])
            .perform()
        #expect(recorder.lines == ["prepared /sized", "head 200", "finished ok"])
        let metrics = try #require(recorder.metrics)
        let firstByte = try #require(metrics.timeToFirstByte)
        #expect(metrics.totalDuration - firstByte >= 1.5)
        #expect(metrics.bytesReceived == 1000)
    }
}
#endif
