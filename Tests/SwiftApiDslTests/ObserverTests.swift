import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl
@testable import SwiftApiDslCache

/// An observer that writes down every event, as a line and as the value received.
final class RecordingObserver: Sendable {
    let name: String
    private let log: Locked<[String]>
    private let finished = Locked<[(id: Int, metrics: RequestMetrics)]>([])
    private let ids = Locked<Set<Int>>([])

    /// `log` may be shared by several observers, to see the order they are called in.
    init(_ name: String = "", log: Locked<[String]> = Locked([])) {
        self.name = name
        self.log = log
    }

    var lines: [String] { log.withLock { $0 } }
    var metrics: [RequestMetrics] { finished.withLock { $0.map(\.metrics) } }
    /// The request ID of each finish, in order.
    var finishedIDs: [Int] { finished.withLock { $0.map(\.id) } }
    var requestIDs: Set<Int> { ids.withLock { $0 } }

    private func note(_ id: Int, _ line: String) {
        ids.withLock { _ = $0.insert(id) }
        log.withLock { $0.append(name + line) }
    }

    func observe(_ event: RequestEvent) {
        let id = event.requestID
        switch event.kind {
        case .prepared(let request):
            note(id, "prepared \(request.method.rawValue) \(request.url?.path ?? "?")")
        case .redirected(let from, let to, let statusCode):
            note(id, "redirected \(statusCode) \(from.url?.path ?? "?") → \(to.url?.path ?? "?")")
        case .responseHead(let statusCode, _, _):
            note(id, "head \(statusCode)")
        case .retrying(let attempt, _, let delay):
            note(id, "retry \(attempt) after \(delay)")
        case .finished(let metrics):
            finished.withLock { $0.append((id, metrics)) }
            note(id, "finished \(metrics.statusCode.map(String.init) ?? "-") \(metrics.error?.stage ?? "ok")")
        }
    }
}

extension ApiClient {
    /// The client with `recorder` as an observer.
    func observer(_ recorder: RecordingObserver) -> ApiClient { observer(recorder.observe) }
}

@Suite struct ObserverTests {
    @Test func aSuccessIsPreparedReceivedAndFinishedWithItsMetrics() async throws {
        let observer = RecordingObserver()
        let transport = RecordingTransport { _ in (Data("hello".utf8), 200, ["Content-Type": "text/plain"]) }
        try await ApiClient.recording(transport).observer(observer).post("notes").body(Data("123".utf8)).perform()
        #expect(observer.lines == ["prepared POST /v1/notes", "head 200", "finished 200 ok"])
        let metrics = try #require(observer.metrics.first)
        #expect(metrics.bytesSent == 3)
        #expect(metrics.bytesReceived == 5)
        #expect(metrics.redirectCount == 0)
        #expect(metrics.request?.url?.absoluteString == "https://api.example.com/v1/notes")
        #expect(metrics.error == nil)
        let firstByte = try #require(metrics.timeToFirstByte)
        #expect(firstByte >= 0 && firstByte <= metrics.totalDuration)
        #expect(observer.requestIDs.count == 1)
    }

    @Test func aRejectedResponseFinishesWithItsStatusAndTheValidationError() async throws {
        let observer = RecordingObserver()
        let client = ApiClient.recording(RecordingTransport { _ in (Data("{}".utf8), 404, [:]) }).observer(observer).httpStatusCodeRange()
        await #expect(throws: RequestError.self) { try await client.get("missing").perform() }
        #expect(observer.lines == ["prepared GET /v1/missing", "head 404", "finished 404 validate"])
        #expect(observer.metrics.first?.bytesReceived == 2)
    }

    @Test func aRedirectIsReportedBetweenItsTwoHeads() async throws {
        let observer = RecordingObserver()
        let transport = RecordingTransport { request in
            request.urlRequest.url?.path == "/v1/old" ? (Data(), 302, ["Location": "/v1/new"]) : (Data("ok".utf8), 200, [:])
        }
        try await ApiClient.recording(transport).observer(observer).get("old").perform()
        #expect(observer.lines == ["prepared GET /v1/old", "head 302", "redirected 302 /v1/old → /v1/new", "head 200", "finished 200 ok"])
        #expect(observer.metrics.first?.redirectCount == 1)
        #expect(observer.metrics.first?.request?.url?.path == "/v1/new")
    }

    @Test func aTransportFailureFinishesWithoutStatus() async throws {
        let observer = RecordingObserver()
        let client = ApiClient.recording(RecordingTransport { _ in throw URLError(.cannotConnectToHost) }).observer(observer)
        await #expect(throws: RequestError.self) { try await client.get("x").perform() }
        #expect(observer.lines == ["prepared GET /v1/x", "finished - transport"])
        let metrics = try #require(observer.metrics.first)
        #expect(metrics.timeToFirstByte == nil)
        #expect(metrics.statusCode == nil)
        #expect((metrics.error?.underlyingError as? URLError)?.code == .cannotConnectToHost)
    }

    @Test func aFailingModifierFinishesWithoutBeingPrepared() async throws {
        struct Refused: Error {}
        let observer = RecordingObserver()
        let client = ApiClient.recording(RecordingTransport()).observer(observer)
        await #expect(throws: RequestError.self) { try await client.get("x").modifier { _ in throw Refused() }.perform() }
        #expect(observer.lines == ["finished - modify"])
        #expect(observer.metrics.first?.request?.url?.path == "/v1/x")
    }

    @Test func decodingFailuresAreReportedInTheFinish() async throws {
        struct Profile: Decodable { var name: String }
        let observer = RecordingObserver()
        let client = ApiClient.recording(RecordingTransport { _ in (Data("[]".utf8), 200, [:]) }).observer(observer)
        await #expect(throws: RequestError.self) { let _: Profile = try await client.get("me").perform() }
        #expect(observer.lines == ["prepared GET /v1/me", "head 200", "finished 200 fatal"])
    }

    @Test func observersAreCalledInTheOrderTheyWereAdded() async throws {
        let log = Locked<[String]>([])
        let client = ApiClient.recording(RecordingTransport()).observer(RecordingObserver("A ", log: log)).observer(RecordingObserver("B ", log: log))
        try await client.get("x").perform()
        #expect(log.withLock { $0 } == ["A prepared GET /v1/x", "B prepared GET /v1/x", "A head 200", "B head 200", "A finished 200 ok", "B finished 200 ok"])
    }

    @Test func eachPerformanceHasItsOwnRequestID() async throws {
        let observer = RecordingObserver()
        let request = ApiClient.recording(RecordingTransport()).observer(observer).get("x")
        try await request.perform()
        try await request.perform()
        #expect(observer.requestIDs.count == 2)
        #expect(Set(observer.finishedIDs) == observer.requestIDs)
    }

    @Test func streamedBodiesCountTheirLengthAndDownloadsTheirFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let upload = folder.appendingPathComponent("up.bin")
        try Data(repeating: 7, count: 1000).write(to: upload)
        let observer = RecordingObserver()
        let client = ApiClient.recording(RecordingTransport { _ in (Data(repeating: 1, count: 4096), 200, [:]) }).observer(observer)
        try await client.put("file").uploadFile(upload).perform()
        try await client.get("file").download(destination: folder.appendingPathComponent("down.bin"))
        #expect(observer.metrics.map(\.bytesSent) == [1000, 0])
        #expect(observer.metrics.map(\.bytesReceived) == [4096, 4096])
    }

    @Test func retriesReachObserversThroughTheTrace() {
        let observer = RecordingObserver()
        let trace = RequestTrace(observers: [observer.observe])
        trace.retrying(attempt: 2, error: .transport(URLRequest(url: exampleBase), URLError(.timedOut)), delay: 0.5)
        #expect(observer.lines == ["retry 2 after 0.5"])
        #expect(ApiClient(baseUrl: exampleBase).startingTrace() == nil)
    }

    @Test func metricsReadAsOneLine() {
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/users?token=t")!)
        request.httpMethod = "POST"
        let sent = TransportRequest(urlRequest: request)
        let success = RequestMetrics(request: sent, totalDuration: 0.0844, timeToFirstByte: 0.0812, bytesSent: 3,
                                     bytesReceived: 512, redirectCount: 0, statusCode: 200, error: nil, source: .network)
        #expect(RequestEvent(requestID: 12, kind: .finished(success)).description == "#12 POST https://api.example.com/v1/users?token=%3Credacted%3E → 200 in 0.084 s "
            + "(first byte 0.081 s), 3 bytes sent, 512 received")
        let failure = RequestMetrics(request: sent, totalDuration: 2, timeToFirstByte: nil, bytesSent: 0,
                                     bytesReceived: 0, redirectCount: 0, statusCode: nil, error: .transport(request, URLError(.timedOut)),
                                     source: .network)
        #expect(RequestEvent(requestID: 13, kind: .finished(failure)).description == "#13 POST https://api.example.com/v1/users?token=%3Credacted%3E → failed in 2.000 s: "
            + "RequestError.transport: POST https://api.example.com/v1/users?token=%3Credacted%3E failed: URLError -1001 (timed out), "
            + "0 bytes sent, 0 received")
        let hit = RequestMetrics(request: nil, totalDuration: 0.0002, timeToFirstByte: nil, bytesSent: 0,
                                 bytesReceived: 512, redirectCount: 0, statusCode: 200, error: nil, source: .stored)
        #expect(RequestEvent(requestID: 14, kind: .finished(hit)).description == "#14 <no request> → 200 in 0.000 s (stored), 0 bytes sent, 512 received")
    }

    @Test func everyTextAnEventMakesIsRedacted() async throws {
        let observer = TextObserver()
        let transport = RecordingTransport { request in
            request.urlRequest.url?.path == "/v1/old"
                ? (Data(), 302, ["Location": "/v1/new?session=s-1"])
                : (Data(), 401, ["Set-Cookie": "id=c-2", "X-Token": "t-3"])
        }
        let base = URL(string: "https://me:pw-4@api.example.com/v1")!
        let client = ApiClient(transport: transport, baseUrl: base).observer(observer.observe)
            .bearer("b-5").header("X-Api-Key", "k-6").queryItem(name: "api_key", "q-7").httpStatusCodeRange()
        await #expect(throws: RequestError.self) { try await client.get("old").perform() }
        let texts = observer.texts
        #expect(texts.count == 4 * 5) // prepared, head, redirect, head, finished; four forms each
        for text in texts {
            for secret in ["s-1", "c-2", "t-3", "pw-4", "b-5", "k-6", "q-7"] { #expect(!text.contains(secret), "\(secret) leaked in \(text)") }
        }
        #expect(texts.contains("#\(observer.id) 302: GET https://me:%3Credacted%3E@api.example.com/v1/old?api_key=%3Credacted%3E"
            + " → GET https://me:%3Credacted%3E@api.example.com/v1/new?session=%3Credacted%3E"))
    }
}

/// Renders every event in every text form, as a logger might.
final class TextObserver: Sendable {
    private let log = Locked<[String]>([])
    private let lastID = Locked(0)
    var texts: [String] { log.withLock { $0 } }
    var id: Int { lastID.withLock { $0 } }

    private func render(_ event: Any, id: Int, extra: String) {
        var dumped = ""
        dump(event, to: &dumped)
        lastID.withLock { $0 = id }
        log.withLock { $0 += [String(describing: event), String(reflecting: event), dumped, extra] }
    }
    func observe(_ event: RequestEvent) {
        switch event.kind {
        case .prepared(let request): render(event, id: event.requestID, extra: "\(request.curlDescription) \(request.headerFields)")
        case .responseHead(_, let headerFields, _): render(event, id: event.requestID, extra: "\(headerFields)")
        case .finished(let metrics): render(event, id: event.requestID, extra: "\(metrics)")
        default: render(event, id: event.requestID, extra: "")
        }
    }
}
