import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// An API client that never reaches the network: it answers every request itself and
/// records what it received.
///
/// Create a fresh one, or mock an existing `ApiClient` with all its modifiers
/// (authentication included) with `ApiClient/mocked()`:
/// ```swift
/// let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
/// try mock.stub(.get, "todos/:id", body: Todo(id: 7, title: "Buy milk"))
///
/// let service = TodosService(client: mock.client)   // code written against ApiClient
/// let todo = try await service.todo(id: 7)
/// #expect(mock.recordedRequests(method: .get, path: "todos/7").count == 1)
/// ```
/// A request is answered by the first ``stub(_:_:respond:)`` whose method and path match,
/// else by ``resultProvider``, else with an empty `200` (or, when ``isStrict``, with an
/// ``UnmatchedRequestError``). Every setting can change at any time, from any task; a request
/// uses the settings of the moment it reaches the mock.
///
/// It is a class because its identity is the point: the ``client`` you inject and the mock you
/// configure and inspect share one state.
public final class ApiClientMock: RequestStarting {
    // The verbs, `request` and the endpoint calls come from `RequestStarting`, declared once for
    // the client and the mock: `mock.get("todos")` is `mock.client.get("todos")`. The settings,
    // stubs and recordings live in extensions constrained to the class.

    /// Answers a request, or returns `nil` to let the mock answer with its default.
    ///
    /// Return `.failure` with any `RequestError` to make the request throw it
    /// unchanged. Any other error thrown here reaches the caller as
    /// `RequestError/transport(_:_:)`.
    public typealias ResultProvider = @Sendable (URLRequest) async throws -> Result<Response<Data>, RequestError>?

    /// The client to hand to the code under test: it keeps the modifiers, authentication,
    /// validators and JSON coders it was made with, and sends through this mock.
    public let client: ApiClient
    /// The mock's state, shared with every copy of ``client``.
    let transport: MockTransport

    /// Creates a mock with no modifiers, answering requests resolved against `baseUrl`.
    ///
    /// ```swift
    /// let mock = ApiClientMock(baseUrl: URL(string: "https://example.com/api")!)
    /// ```
    public convenience init(baseUrl: URL, jsonEncoder: JSONEncoder = JSONEncoder(), jsonDecoder: JSONDecoder = JSONDecoder()) {
        let transport = MockTransport(baseUrl: baseUrl, jsonEncoder: jsonEncoder, jsonDecoder: jsonDecoder)
        self.init(client: ApiClient(transport: transport, baseUrl: baseUrl, jsonEncoder: jsonEncoder, jsonDecoder: jsonDecoder),
                  transport: transport)
    }

    /// Creates a mock of `client`: the same client, sending through a fresh mock transport.
    convenience init(mocking client: ApiClient) {
        // Recorded request bodies are JSON, as the client encodes them, whatever its responses are.
        let transport = MockTransport(baseUrl: client.baseUrl, jsonEncoder: client.jsonEncoder,
                                      jsonDecoder: client.jsonDecoder as? JSONDecoder ?? JSONDecoder())
        self.init(client: client.transport(transport), transport: transport)
    }

    private init(client: ApiClient, transport: MockTransport) {
        // Validators are off on a mock unless it is told otherwise, through the client's public switch.
        self.client = client.validators(enabledWhen: { transport.appliesValidators })
        self.transport = transport
    }
}

extension RequestStarting where Self == ApiClientMock {
    // MARK: Settings

    /// Answers requests that no stub matched; `nil` (the default), or a provider returning
    /// `nil`, leaves them to the default answer: an empty body with status `200`.
    ///
    /// ```swift
    /// mock.resultProvider = { urlRequest in
    ///     guard urlRequest.url?.path.hasSuffix("user/profile") == true else { return nil }
    ///     return .response(urlRequest, body: profile)
    /// }
    /// ```
    public var resultProvider: ApiClientMock.ResultProvider? {
        get { self.transport.settings.resultProvider }
        nonmutating set { self.transport.update { $0.resultProvider = newValue } }
    }

    /// Whether the client's and requests' validators run on mocked responses. `false` by
    /// default, so a mocked response or `RequestError` reaches the caller as given;
    /// set it to test your validators.
    public var appliesValidators: Bool {
        get { self.transport.settings.appliesValidators }
        nonmutating set { self.transport.update { $0.appliesValidators = newValue } }
    }

    /// Whether a request that no stub matched and that ``resultProvider`` did not answer fails,
    /// instead of getting an empty `200`. `false` by default.
    ///
    /// The request then throws `RequestError/transport(_:_:)` carrying an
    /// ``UnmatchedRequestError`` that names the request and every stub that was tried.
    public var isStrict: Bool {
        get { self.transport.settings.isStrict }
        nonmutating set { self.transport.update { $0.isStrict = newValue } }
    }

    /// A delay, in seconds, before each request is answered; `0` (the default) answers at once.
    /// The wait ends early, with `CancellationError`, when the calling task is cancelled.
    public var latency: TimeInterval {
        get { self.transport.settings.latency }
        nonmutating set { self.transport.update { $0.latency = newValue } }
    }

    // MARK: Recording

    /// Every request the mock received, in the order it received them, as they were after all
    /// modifiers ran. A followed redirect is one more request.
    public var recordedRequests: [RecordedRequest] { self.transport.recordedRequests }

    /// The recorded requests with `method` (any if `nil`) whose path matches `path` (any if
    /// `nil`), in order. `path` is a pattern like those of stubs, so `"todos/:id"` matches every todo.
    ///
    /// ```swift
    /// #expect(mock.recordedRequests(method: .post, path: "todos").count == 1)
    /// ```
    public func recordedRequests(method: HttpMethod? = nil, path: String? = nil) -> [RecordedRequest] {
        let pattern = path.map(PathPattern.init)
        return self.recordedRequests.filter { request in
            (method == nil || method == request.method)
                && (pattern.map { $0.match(request.pathSegments) != nil } ?? true)
        }
    }

    /// Forgets the recorded requests.
    public func removeRecordedRequests() {
        self.transport.removeRecordedRequests()
    }
}

extension ApiClientMock: CustomReflectable {
    /// The mocked client's text form and how many requests were recorded; the recorded requests
    /// themselves are in ``recordedRequests``, each with a redacted text form.
    public var customMirror: Mirror {
        Mirror(self, children: ["client": client.description, "recordedRequests": recordedRequests.count])
    }
}
