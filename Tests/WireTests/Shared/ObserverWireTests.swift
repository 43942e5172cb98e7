#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// Observers over a real socket, on every engine: the events arrive in order with real metrics.
@Suite struct ObserverWireTests {
    /// Writes each event down as a line; keeps the metrics. (`Locked` is package-internal, and
    /// these cases also run from the AsyncHTTPClient package.)
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var log: [String] = []
        private var finished: [RequestMetrics] = []
        var lines: [String] { lock.withLock { log } }
        var metrics: RequestMetrics? { lock.withLock { finished.first } }

        private func note(_ line: String) { lock.withLock { log.append(line) } }

        func observe(_ event: RequestEvent) {
            switch event.kind {
            case .prepared(let request): note("prepared \(request.url?.path ?? "")")
            case .redirected(_, let to, let statusCode): note("redirected \(statusCode) → \(to.url?.path ?? "")")
            case .responseHead(let statusCode, _, _): note("head \(statusCode)")
            case .retrying(let attempt, _, _): note("retrying \(attempt)")
            case .finished(let metrics):
                lock.withLock { finished.append(metrics) }
                note("finished \(metrics.error?.stage ?? "ok")")
            }
        }
    }

    @Test func aSuccessReportsItsBytesAndTimings() async throws {
        let recorder = Recorder()
        let response = try await HttpBin.client().observer(recorder.observe).post("anything/notes").body(Data("12345".utf8)).perform()
        #expect(recorder.lines == ["prepared /anything/notes", "head 200", "finished ok"])
        let metrics = try #require(recorder.metrics)
        #expect(metrics.statusCode == 200)
        #expect(metrics.bytesSent == 5)
        #expect(metrics.bytesReceived == Int64(response.body.count))
        #expect(metrics.bytesReceived > 0)
        let firstByte = try #require(metrics.timeToFirstByte)
        #expect(firstByte > 0 && firstByte <= metrics.totalDuration)
    }

    @Test func aRejectedStatusFinishesWithTheValidationError() async throws {
        let recorder = Recorder()
        let client = try HttpBin.client().observer(recorder.observe).httpStatusCodeRange()
        await #expect(throws: RequestError.self) { try await client.get("status/404").perform() }
        #expect(recorder.lines == ["prepared /status/404", "head 404", "finished validate"])
        #expect(recorder.metrics?.statusCode == 404)
    }

    @Test func aRedirectIsReportedWithBothHeads() async throws {
        let recorder = Recorder()
        let client = try HttpBin.client().observer(recorder.observe)
        try await client.get("redirect-to").modifier(RedirectWireTests.redirect(to: "/anything/there", status: 302)).perform()
        #expect(recorder.lines == ["prepared /redirect-to", "head 302", "redirected 302 → /anything/there", "head 200", "finished ok"])
        #expect(recorder.metrics?.redirectCount == 1)
        #expect(recorder.metrics?.request?.url?.path == "/anything/there")
    }

    @Test func aRefusedConnectionFinishesWithoutAResponse() async throws {
        let recorder = Recorder()
        let client = ApiClient(transport: WireTransport.shared, baseUrl: try HttpBin.closedPortURL()).observer(recorder.observe)
        await #expect(throws: RequestError.self) { try await client.get("x").perform() }
        #expect(recorder.lines == ["prepared /x", "finished transport"])
        #expect(recorder.metrics?.statusCode == nil)
        #expect(recorder.metrics?.timeToFirstByte == nil)
    }
}
#endif
