#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// `stream()` hands the body over as it arrives, on every engine.
@Suite struct StreamWireTests {
    /// Every chunk of `body`, in order.
    private func chunks(of body: ResponseBody) async throws -> [Data] {
        var chunks: [Data] = []
        for try await chunk in body { chunks.append(chunk) }
        return chunks
    }

    @Test func streamedJSONLinesArriveWhole() async throws {
        let response = try await HttpBin.client().get("stream/5").stream()
        #expect(response.statusCode == 200)
        let text = String(decoding: try await chunks(of: response.body).reduce(Data(), +), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.contains("\"id\"") })
    }

    @Test func drippedBytesAreReadAsTheyCome() async throws {
        let response = try await HttpBin.client().get("drip")
            .queryItems(["duration": "0.5", "numbytes": "5", "delay": "0"]).stream()
        let body = try await chunks(of: response.body).reduce(Data(), +)
        #expect(body == Data(repeating: UInt8(ascii: "*"), count: 5))
    }

    @Test func binaryBodiesArriveExactly() async throws {
        let announced = try await chunks(of: HttpBin.client().get("bytes/3000").stream().body).reduce(Data(), +)
        #expect(announced.count == 3000)
        let chunked = try await chunks(of: HttpBin.client().get("stream-bytes/3000")
            .queryItem(name: "chunk_size", "256").stream().body).reduce(Data(), +)
        #expect(chunked.count == 3000)
    }

    @Test func validatorsRunOnTheHeadWithAnEmptyBodyForASuccess() async throws {
        let seen = Trail()
        let response = try await HttpBin.client().validator { seen.add("\($0.statusCode):\($0.body.count)") }
            .get("bytes/100").stream()
        #expect(seen.all == ["200:0"])
        #expect(try await chunks(of: response.body).reduce(Data(), +).count == 100)
    }

    @Test func anErrorStatusFailsValidationWithItsDocument() async throws {
        let error = await #expect(throws: RequestError.self) {
            try await HttpBin.client().httpStatusCodeRange().get("status/418").stream()
        }
        guard case .validate(_, let data, let response, _) = error else {
            Issue.record("expected .validate, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 418)
        #expect(String(decoding: data, as: UTF8.self).contains("teapot"))
    }

    /// Cancelled once the first byte of a 10 s drip (a byte every 2 s) has arrived, the read ends
    /// as a cancellation, without the rest of the drip: the hang this pins read all 5 bytes first.
    @Test(.timeLimit(.minutes(1))) func cancellingTheReaderClosesTheConnectionPromptly() async throws {
        let client = try HttpBin.client()
        let received = Trail()
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let reading = Task {
            defer { arrived.finish() } // a read that fails before its first byte is reported, not waited for
            let response = try await client.get("drip").queryItems(["duration": "10", "numbytes": "5", "delay": "0"]).stream()
            for try await chunk in response.body {
                received.add(String(decoding: chunk, as: UTF8.self))
                arrived.yield()
            }
        }
        var first = arrivals.makeAsyncIterator()
        _ = await first.next()
        reading.cancel()
        let result = await reading.result
        #expect(received.all.joined().count < 5, "the read went on after the cancellation: \(received.all)")
        guard case .failure(let error) = result else {
            Issue.record("the read ended without an error after the cancellation")
            return
        }
        #expect(error.asRequestError.isCancellation)
    }

    @Test func aBodyGrowingPastTheLimitFailsTheRead() async throws {
        let response = try await HttpBin.client().get("stream-bytes/4096").queryItem(name: "chunk_size", "512")
            .maxResponseSize(1000).stream()
        let error = await #expect(throws: RequestError.self) { _ = try await chunks(of: response.body) }
        guard case .transport(_, let source) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(source as? ApiClientError == ApiClientError(.responseTooLarge, message: "response body exceeds the limit of 1000 bytes", limit: 1000))
    }

    @Test func aStalledStreamTimesOut() async throws {
        // A byte, then 3 s of silence: the timeout ends the read (or the wait for the head, on a
        // machine so loaded that the first byte comes late).
        let error = await #expect(throws: RequestError.self) {
            let response = try await HttpBin.client().get("drip")
                .queryItems(["duration": "6", "numbytes": "2", "delay": "0"]).timeoutInterval(1).stream()
            _ = try await chunks(of: response.body)
        }
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
    }
}
#endif
