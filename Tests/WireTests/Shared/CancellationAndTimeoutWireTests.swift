#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Cancellation ends a call promptly; `timeoutInterval` is an idle timeout honoured to the
/// sub-second (URLSession on Linux truncates it to whole seconds).
@Suite struct CancellationAndTimeoutWireTests {
    @Test func cancellingDuringDelayEndsPromptlyAsCancellation() async throws {
        let client = try HttpBin.client()
        // Bounds are generous for a loaded machine; what they pin would take the whole 10 s.
        let (error, elapsed) = try await cancelled(after: 0.3) { try await client.get("delay/10").perform() }
        #expect(elapsed < 3)
        #expect(error?.asRequestError.isCancellation == true)
        #expect(error?.asRequestError.stage == "transport")
    }

    @Test func alreadyCancelledTaskFailsAtOnce() async throws {
        let client = try HttpBin.client()
        // Timed inside the task: from the call to its failure, whatever else the test run keeps busy.
        let (result, elapsed) = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await measure { await Result { try await client.get("delay/10").perform() } }
        }.value
        #expect(elapsed < 3)
        guard case .failure(let error) = result else {
            Issue.record("the cancelled request succeeded")
            return
        }
        #expect(error.asRequestError.isCancellation)
    }

    @Test func cancellingADownloadLeavesNoFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("slow.bin")
        let client = try HttpBin.client()
        let (error, elapsed) = try await cancelled(after: 0.3) {
            try await client.get("drip").queryItems(["duration": "10", "numbytes": "5", "delay": "0"]).download(destination: destination)
        }
        #expect(elapsed < 3)
        #expect(error?.asRequestError.isCancellation == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func cancellationIsRecognisedInOneCheck() {
        let request = URLRequest(url: URL(fileURLWithPath: "/"))
        #expect(RequestError.transport(request, URLError(.cancelled)).isCancellation)
        #expect(RequestError.transport(request, CancellationError()).isCancellation)
        #expect(RequestError.modify(request, CancellationError()).isCancellation)
        #expect(!RequestError.transport(request, URLError(.timedOut)).isCancellation)
    }

    @Test func subSecondTimeoutIsHonoured() async throws {
        let client = try HttpBin.client().timeoutInterval(0.5)
        let (result, elapsed) = await measure { await Result { try await client.get("delay/10").perform() } }
        // Linux URLSession alone fails a 0.5 s timeout at once; the request ends after 0.5 s.
        #expect(elapsed >= 0.45)
        #expect(elapsed < 5)
        guard case .failure(let error) = result, case .transport(_, let source) = error.asRequestError else {
            Issue.record("expected a transport error, got \(result)")
            return
        }
        #expect((source as? URLError)?.code == .timedOut)
    }

    @Test func fractionalTimeoutIsNotTruncated() async throws {
        // URLSession on Linux would treat 1.95 as 1.0 and fail this 1.05-second response; 0.9 s of
        // margin is the most a whole-second truncation leaves room for.
        let response = try await HttpBin.client().get("delay/1.05").timeoutInterval(1.95).perform()
        #expect(response.httpResponse.statusCode == 200)
        let error = await #expect(throws: RequestError.self) { try await HttpBin.client().get("delay/1.2").timeoutInterval(0.9).perform() }
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
    }

    @Test func timeoutIsAnIdleTimeout() async throws {
        // Bytes arrive every 0.5 s for 4.5 s: never idle for 3 s, so the request succeeds.
        let data: Data = try await HttpBin.client().get("drip")
            .queryItems(["duration": "4.5", "numbytes": "9", "delay": "0"])
            .timeoutInterval(3)
            .perform()
        #expect(data == Data(repeating: UInt8(ascii: "*"), count: 9))
    }
}
#endif
