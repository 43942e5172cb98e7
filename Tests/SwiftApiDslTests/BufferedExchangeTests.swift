import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// Which calls tell the transport that nothing needs their body chunk by chunk
/// (`ExchangeControl.isBuffered`): the URLSession transport then sends them with one `data(for:)`.
@Suite struct BufferedExchangeTests {
    /// Answers `hello` and records what each exchange's control said.
    final class Recorder: HTTPTransport {
        private let seen = Locked<[Bool]>([])
        var buffered: [Bool] { seen.withLock { $0 } }

        func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
            seen.withLock { $0.append(control.isBuffered) }
            return TransportResponse(statusCode: 200, headerFields: ["Content-Length": "5"], body: ResponseBody(Data("hello".utf8)))
        }
    }

    @Test func onlyAPlainPerformIsBuffered() async throws {
        let transport = Recorder()
        let client = ApiClient(transport: transport, baseUrl: exampleBase)
        _ = try await client.get("a").perform()
        _ = try await client.get("a").timeoutInterval(0.25).perform()
        _ = try await client.get("a").retryPolicy(.init(maxAttempts: 3)).perform()
        _ = try await client.get("a").maxResponseSize(10).perform()
        _ = try await client.get("a").downloadProgress { _ in }.perform()
        _ = try await client.post("a", body: ["a": 1]).uploadProgress { _ in }.perform()
        _ = try await client.observer(Silent()).get("a").perform()
        _ = try await client.get("a").stream()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("buffered-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await client.get("a").download(destination: file)
        #expect(transport.buffered == [true, true, false, false, false, false, false, false, false])
    }

    /// An observer that notes nothing: its presence alone makes the call per-chunk.
    struct Silent: RequestObserver {}

    @Test func aTransportCalledDirectlyIsNotBuffered() {
        #expect(ExchangeControl().isBuffered == false)
    }
}

/// Which buffered calls the URLSession transport sends with one `data(for:)`, and with which timer.
@Suite struct URLSessionBufferedCallTests {
    func control(timeout: TimeInterval = 60, buffered: Bool = true) -> ExchangeControl {
        ExchangeControl(idleTimeout: timeout, url: nil, isBuffered: buffered)
    }

    @Test func aPlainGetTakesTheBufferedPath() throws {
        let get = TransportRequest(url: exampleBase)
        #expect(URLSessionBufferedCall.isEligible(get, control: control()))
        #expect(!URLSessionBufferedCall.isEligible(get, control: control(buffered: false)))
        let file = TransportRequest(url: exampleBase, method: .put, body: .file(URL(fileURLWithPath: "/dev/null")))
        #expect(!URLSessionBufferedCall.isEligible(file, control: control()))
    }

    @Test func onLinuxOnlyAnonymousSafeMethodsTakeIt() {
        let post = TransportRequest(url: exampleBase, method: .post, httpBody: Data("{}".utf8))
        let signed = TransportRequest(url: exampleBase, headerFields: ["Authorization": "Bearer t"])
        let head = TransportRequest(url: exampleBase, method: .head)
        #expect(URLSessionBufferedCall.isEligible(head, control: control()))
        #if canImport(FoundationNetworking)
        #expect(!URLSessionBufferedCall.isEligible(post, control: control()))
        #expect(!URLSessionBufferedCall.isEligible(signed, control: control()))
        #else
        #expect(URLSessionBufferedCall.isEligible(post, control: control()))
        #expect(URLSessionBufferedCall.isEligible(signed, control: control()))
        #endif
    }

    @Test func theEngineKeepsTheTimeoutOnlyWhenItCanKeepItExactly() {
        let week = URLSessionTransport.longestBackstop
        #expect(URLSessionBufferedCall.engineTimeout(for: 60) == 60)
        #expect(URLSessionBufferedCall.engineTimeout(for: 1) == 1)
        for none in [0, -1, .nan, .infinity, week, week * 2] {
            #expect(URLSessionBufferedCall.engineTimeout(for: none) == week)
        }
        #if canImport(FoundationNetworking)
        #expect(URLSessionBufferedCall.engineTimeout(for: 0.5) == nil)
        #expect(URLSessionBufferedCall.engineTimeout(for: 1.5) == nil)
        #expect(!URLSessionBufferedCall.isEligible(TransportRequest(url: exampleBase), control: control(timeout: 2.5)))
        #else
        #expect(URLSessionBufferedCall.engineTimeout(for: 0.5) == 0.5)
        #endif
    }
}

/// The two ways a transport keeps a buffered exchange's idle timeout right.
@Suite struct ExchangeControlIdlenessTests {
    @Test func anExchangeLeftToItsEngineIsNeverTimedOutByThePipeline() {
        let control = ExchangeControl(idleTimeout: 1, url: nil, isBuffered: true)
        control.leaveIdleTimeoutToEngine()
        control.checkIdleness(at: DispatchTime.now().uptimeNanoseconds + 3_600_000_000_000)
        #expect(!control.isAborted)
    }

    @Test func bytesReportedAsReceivedRestartTheIdleTimeout() async throws {
        let watched = ExchangeControl(idleTimeout: 1, url: nil, isBuffered: true)
        let quiet = ExchangeControl(idleTimeout: 1, url: nil, isBuffered: true)
        try await Task.sleep(nanoseconds: 600_000_000)
        // Read before the bytes, so the watched one is at most 0.6 s idle at `later` however
        // slowly this runs, and the quiet one at least 1.2 s.
        let beforeBytes = DispatchTime.now().uptimeNanoseconds
        watched.didReceive(100)
        let later = beforeBytes + 600_000_000
        watched.checkIdleness(at: later)
        quiet.checkIdleness(at: later)
        #expect(!watched.isAborted)
        #expect(quiet.isAborted)
        #expect((quiet.abortReason as? URLError)?.code == .timedOut)
    }
}

/// `RequestDraft` is public and holds the request a modifier shapes: its text forms show no secret.
@Suite struct RequestDraftRedactionTests {
    @Test func aDraftsTextShowsNoSecret() throws {
        let url = try #require(URL(string: "https://me:hunter2@example.com/a?api_key=k3y&page=2"))
        let request = TransportRequest(url: url, headerFields: ["Authorization": "Bearer s3cret", "Cookie": "id=c00kie", "Accept": "text/plain"])
        let draft = RequestDraft(request: request, jsonEncoder: JSONEncoder())
        var dumped = ""
        dump(draft, to: &dumped)
        for text in [String(describing: draft), String(reflecting: draft), dumped] {
            for secret in ["hunter2", "k3y", "s3cret", "c00kie"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
        #expect(dumped.contains("Accept: text/plain"))
        #expect(dumped.contains("page=2"))
    }
}
