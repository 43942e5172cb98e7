import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// The transport behind an `ApiClientMock`: it answers each request from the mock's settings
/// and records it. Nothing here touches the network.
///
/// The hot path takes the lock twice (read the settings, append the record) and does no other
/// work than matching stubs, unless a latency is set.
final class MockTransport: HTTPTransport, Sendable {
    /// What the mock answers with; changed by `ApiClientMock` at any time.
    struct Settings: Sendable {
        var resultProvider: ApiClientMock.ResultProvider?
        var stubs: [MockStub] = []
        var isStrict = false
        var appliesValidators = false
        var latency: TimeInterval = 0
    }

    private struct State {
        var settings = Settings()
        var recorded: [RecordedRequest] = []
    }

    /// The longest latency honoured, in seconds, so that any `TimeInterval` converts to nanoseconds.
    private static let maximumLatency: TimeInterval = 1_000_000

    let baseUrl: URL
    let jsonEncoder: JSONEncoder
    let jsonDecoder: JSONDecoder
    private let basePath: BasePath
    private let state = Locked(State())

    init(baseUrl: URL, jsonEncoder: JSONEncoder, jsonDecoder: JSONDecoder) {
        self.baseUrl = baseUrl
        self.jsonEncoder = jsonEncoder
        self.jsonDecoder = jsonDecoder
        self.basePath = BasePath(baseUrl)
    }

    var settings: Settings { state.withLock { $0.settings } }

    func update(_ change: (inout Settings) -> Void) {
        state.withLock { change(&$0.settings) }
    }

    var recordedRequests: [RecordedRequest] { state.withLock { $0.recorded } }

    func removeRecordedRequests() {
        state.withLock { $0.recorded.removeAll() }
    }

    var appliesValidators: Bool { state.withLock { $0.settings.appliesValidators } }

    // MARK: HTTPTransport

    func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
        var request = request
        if case .stream(let streamed) = request.body {
            // Read as a server would, and recorded as the bytes it gave (`httpBody`, `bodyText`).
            var data = Data()
            for try await chunk in try streamed.makeChunks() { data.append(chunk) }
            request.setBody(data)
        }
        let response = try await answer(request)
        return TransportResponse(response.httpResponse, body: ResponseBody(response.body))
    }

    /// Records `request`, then answers it: the first matching stub, else the result provider,
    /// else an empty `200`, or an ``UnmatchedRequestError`` when the mock is strict.
    private func answer(_ request: TransportRequest) async throws -> Response<Data> {
        guard let url = request.url else { throw URLError(.badURL) }
        let settings = self.settings
        let segments = basePath.segments(of: url)
        let method = request.method
        var matched: (stub: MockStub, parameters: [String: String])?
        for stub in settings.stubs {
            if let parameters = stub.match(method: method, segments: segments) {
                matched = (stub, parameters)
                break
            }
        }
        let recorded = RecordedRequest(request, url: url, pathSegments: segments,
                                       pathParameters: matched?.parameters ?? [:], jsonDecoder: jsonDecoder)
        state.withLock { $0.recorded.append(recorded) }

        try Task.checkCancellation()
        if settings.latency > 0 {
            try await Task.sleep(nanoseconds: UInt64(min(settings.latency, Self.maximumLatency) * 1_000_000_000))
        }
        let result: Result<Response<Data>, RequestError>
        if let matched {
            result = try await matched.stub.respond(recorded)
        } else if let provided = try await settings.resultProvider?(recorded.urlRequest) {
            result = provided
        } else if settings.isStrict {
            throw UnmatchedRequestError(request: recorded, triedStubs: settings.stubs.map(\.description))
        } else {
            result = .response(recorded.urlRequest)
        }
        try Task.checkCancellation()
        return try result.get()
    }
}
