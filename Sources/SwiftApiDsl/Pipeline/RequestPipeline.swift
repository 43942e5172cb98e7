import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The life of a request, in the order it happens (`execute(into:trace:)` below):
//   1. build     the base request: URL from base + path, method, the `body:` given at the start
//   2. modify    the client's modifiers, in the order they were chained
//   3. authenticate  the client's authentication, unless `bypassAuth`, and only for the base
//                    URL's origin unless the request opted in (`authenticatingAnyOrigin()`)
//   4. modify    the request's own modifiers, so a request overrides its client; then the
//                finished request is checked (absolute http(s) URL, valid header fields)
//   5. send      through the middleware chain, outermost first:
//                  credential renewal  a refused renewable credential is renewed and the call
//                                      replayed once from step 1 (Middleware/CredentialRenewal.swift)
//                  retries             per the `RetryPolicy`, none by default (Middleware/Retrying.swift)
//                  redirects           per the `RedirectPolicy` (Middleware/RedirectFollowing.swift)
//                  the client's middlewares, then the call's (Middleware/Middleware.swift;
//                                      SwiftApiDslCache's cache is one, on the public seams)
//                  observers           the request as the transport gets it (Middleware/Observing.swift)
//                  the transport       one exchange under the idle timeout (Pipeline/Exchange.swift)
//                then the body of the final response goes where the call wants it: into memory,
//                a download's file, or to the caller (Pipeline/BodyDestination.swift)
//   6. validate  the client's validators, then the request's; all of them run, except that a
//                validator with an `id` replaces an earlier one with the same `id`; a rejection
//                may be explained by `onRejection` validators (a decoded error body)
//   7. decode    in `perform()` (Request/RequestBuilder.swift, Endpoint/RequestStarting+Endpoints.swift),
//                move the file for a download (Download/Download.swift), or hand the body over unread in `stream()`
// Every failure leaves here as a `RequestError` naming its stage.
// Observers hear of it through `trace` (Observability/RequestTrace.swift) at the points marked `// observe:`.

/// One call's way through the library: a client and the description of a call (a request built
/// with `client.get(…)` or an endpoint), run through the steps above. ``RequestBuilder``,
/// ``Endpoint``, downloads, streams, pages and resources all perform through it.
struct RequestPipeline: Sendable {
    let client: ApiClient
    let call: CallDescription

    /// The encoder of `body:` values: the call's, else the client's.
    private var jsonEncoder: JSONEncoder { call.jsonEncoder ?? client.jsonEncoder }

    /// Runs one performance of the call (`body`) under a trace of the client's observers, which
    /// hears of its end, success or failure, exactly once: here, or, for a body handed to the
    /// caller unread (`endsWithBody`), when that body ends (``RequestTrace/observing(_:)``). What
    /// it throws is turned by the client's ``ApiClient/mapError(_:)`` unless `mapsErrors` is
    /// `false` (a caller that maps itself).
    func observed<T>(mapsErrors: Bool = true, endsWithBody: Bool = false, _ body: (RequestTrace?) async throws -> T) async throws -> T {
        let trace = client.startingTrace()
        do {
            let result = try await body(trace)
            if !endsWithBody { trace?.finished(error: nil) }
            return result
        } catch {
            trace?.finished(error: error.asRequestError)
            throw mapsErrors ? client.mapped(error) : error
        }
    }

    /// Steps 1 to 7 for a call read into memory, observed: `decode` makes the result from the
    /// validated response and the request it answers. Every `perform` goes through here.
    func perform<T>(mapsErrors: Bool = true, _ decode: (Response<Data>, TransportRequest) throws -> T) async throws -> T {
        try await observed(mapsErrors: mapsErrors) { trace in
            let (response, request) = try await execute(trace: trace)
            return try decode(response, request)
        }
    }

    /// Runs steps 1 to 6 and returns the validated response with the request that received it.
    /// For a download the body stays on disk; see ``BodyDestination`` for what validators see.
    func execute(download: DownloadTarget? = nil, trace: RequestTrace?) async throws -> (Response<Data>, TransportRequest) {
        let (response, request, _) = try await execute(into: download.map { .file($0) } ?? .memory, trace: trace)
        return (response, request)
    }

    /// Runs steps 1 to 6; for ``BodyDestination/caller`` also returns the body still to read.
    func execute(into destination: BodyDestination, trace: RequestTrace?) async throws -> (Response<Data>, TransportRequest, ResponseBody?) {
        let (draft, credential) = try await prepare()
        trace?.prepared(draft.request) // observe: prepared
        if case .file(let download) = destination { try download.open(for: draft.request) }
        // Most calls retry nothing and follow no upload: they need no record.
        let record = draft.retryPolicy.maxAttempts > 1 || draft.uploadProgress != nil ? CallRecord(draft) : nil
        let context = Middleware.Call(transport: client.transport, requestID: trace?.requestID, takesBodyAsItArrives: !destination.isMemory)
        let send = chain(for: draft, in: context, credential: credential, call: record, trace: trace)
        let transportResponse: TransportResponse
        do {
            transportResponse = try await send(draft.request)
            try transportResponse.checkStatus() // a middleware's own answer is checked as an engine's
        } catch {
            // A RequestError as it is; a middleware's own error as a transport failure.
            throw error as? RequestError ?? RequestError.transport(draft.request.urlRequest, error)
        }
        trace?.answered(transportResponse) // observe: the chain's answer (a cache's included)
        // The request the final response answers; the prepared one for an answer a middleware made.
        let request = transportResponse.sentRequest ?? draft.request
        record?.uploadProgress?.finish(atTotal: true) // the server has answered: the body it took is all there is
        let (response, streamed) = try await destination.receive(transportResponse, of: request, draft: draft,
                                                                 validated: validates, trace: trace)
        do {
            try await validate(response, of: request)
        } catch let error as RequestError {
            throw ApiClientError.recording(record?.attempts ?? 1, in: error)
        }
        return (response, request, streamed)
    }

    /// Step 5's chain for one call: the built-ins the call needs, the client's and the call's
    /// middlewares, then the transport.
    private func chain(for draft: RequestDraft, in context: Middleware.Call, credential: UsedCredential?, call record: CallRecord?,
                       trace: RequestTrace?) -> Middleware.Next {
        // Built from the transport outwards, each layer only when the call needs it.
        var next = Exchange.send(in: context, uploadProgress: record?.uploadProgress)
        if let trace { next = Middleware.observing(trace).wrapping(next, call: context) }
        for middleware in (client.settings.middlewares + call.middlewares).reversed() { next = middleware.wrapping(next, call: context) }
        next = Middleware.followingRedirects(draft.redirectPolicy, trace: trace).wrapping(next, call: context)
        if let record, draft.retryPolicy.maxAttempts > 1 {
            // A retried status is reported against the caller's range (2xx when it set none).
            let acceptable = ResponseValidator.acceptedStatuses(in: client.settings.validators + call.validators) ?? 200..<300
            next = Middleware.retrying(draft.retryPolicy, record: record, acceptable: acceptable, trace: trace).wrapping(next, call: context)
        }
        if let credential {
            next = Middleware.renewing(credential, replay: { try await self.prepare().draft.request }, trace: trace).wrapping(next, call: context)
        }
        return next
    }

    /// Steps 1 to 4: the request as it will be sent, and the renewable credential it carries.
    func prepare() async throws -> (draft: RequestDraft, credential: UsedCredential?) {
        var draft = try build()
        let built = draft.request.url
        try await modify(&draft, with: client.settings.modifiers)
        var credential: UsedCredential?
        if !call.bypassAuth, let authentication = client.settings.authentication,
           call.authenticatesAnyOrigin || hasBaseOrigin(draft.request.url, built: built) {
            do {
                credential = try await authentication.authenticate(&draft)
            } catch {
                throw RequestError.modify(draft.request.urlRequest, error)
            }
        }
        if !call.query.isEmpty { try await modify(&draft, with: [.queryItems(call.query)]) }
        try await modify(&draft, with: call.modifiers)
        do {
            try FinishedRequestCheck.check(draft.request)
        } catch {
            throw RequestError.modify(draft.request.urlRequest, error)
        }
        return (draft, credential)
    }

    /// Step 3's rule: whether `url` has the base URL's origin, so that authentication may go there.
    private func hasBaseOrigin(_ url: URL?, built: URL?) -> Bool {
        // A path resolved against the base URL that no modifier moved has its origin: the
        // common case skips building two origins.
        if call.url == nil, url == built { return true }
        return url?.origin == client.baseUrl.origin
    }

    /// Step 1: the request before any modifier.
    private func build() throws -> RequestDraft {
        let url: URL
        do {
            url = try client.settings.resolutionBase.url(for: call)
        } catch {
            throw RequestError.modify(URLRequest(url: call.url ?? client.baseUrl), error)
        }
        var draft = RequestDraft(request: TransportRequest(url: url, method: call.method), jsonEncoder: jsonEncoder)
        if let body = call.body {
            do {
                draft.request.setBody(try body.encode(jsonEncoder))
            } catch {
                throw RequestError.modify(draft.request.urlRequest, error)
            }
            draft.request.headerFields.set("application/json", for: HeaderField.contentType.rawValue)
        }
        return draft
    }

    /// Steps 2 to 4: runs `modifiers` in order; the first error stops the request.
    private func modify(_ draft: inout RequestDraft, with modifiers: [RequestModifier]) async throws {
        for modifier in modifiers {
            do {
                try await modifier.apply(&draft)
                // No modifier may run on a request without a URL: corelibs crashes on any change
                // to such a `URLRequest` (see `TransportRequest.urlRequest`).
                if draft.request.url == nil { try FinishedRequestCheck.check(draft.request) }
            } catch {
                throw RequestError.modify(draft.request.urlRequest, error)
            }
        }
    }

    /// Whether step 6 has anything to run: some validator, and the client's switch on.
    private var validates: Bool {
        if let enabled = client.settings.validatorsEnabled, !enabled() { return false }
        return !client.settings.validators.isEmpty || !call.validators.isEmpty
    }

    /// Step 6: every validator, the client's first; none while the client's switch is off
    /// (a mock's, unless it is told otherwise).
    private func validate(_ response: Response<Data>, of request: TransportRequest) async throws {
        if let enabled = client.settings.validatorsEnabled, !enabled() { return }
        // Each list is already free of repeated ids (`append(replacingSameId:)`).
        let listed = client.settings.validators + call.validators
        let all = call.validators.contains(where: { $0.id != nil }) ? ResponseValidator.replacingSameIds(listed) : listed
        for validator in all {
            do {
                try await validator.validate?(response)
            } catch {
                let explained = await ResponseValidator.explain(error, of: response, with: all, decoder: client.jsonDecoder)
                throw RequestError.validate(request.urlRequest, data: response.body, response: response.httpResponse, error: explained)
            }
        }
    }
}

extension ApiClient {
    /// A trace for this client's observers, or `nil` when it has none: a call without observers
    /// makes no trace (a lock, the clock read) and runs nothing of `Observability/`.
    func startingTrace() -> RequestTrace? {
        settings.observers.isEmpty ? nil : RequestTrace(observers: settings.observers)
    }
}

/// What a call that retries or follows its upload records across its attempts: how many the
/// retries made, and the upload's progress.
final class CallRecord: Sendable {
    private let attemptCount = Locked(1)
    /// Told of the request body's bytes as the transport sends them, when someone follows the upload.
    let uploadProgress: ProgressReporter?

    init(_ draft: RequestDraft) {
        // The body's size is read (a file's from disk) only when someone follows the upload.
        uploadProgress = draft.uploadProgress.map { handler in
            let size = draft.request.httpBody.map { Int64($0.count) } ?? (try? draft.request.body?.contentLength()) ?? 0
            return ProgressReporter(total: size, handler: handler)
        }
    }

    /// How many attempts the retries made.
    var attempts: Int {
        get { attemptCount.withLock { $0 } }
        set { attemptCount.withLock { $0 = newValue } }
    }
}

/// The last look at a request after its modifiers ran (step 4 of the pipeline), so that what
/// reaches a transport is always something HTTP can carry.
enum FinishedRequestCheck {
    static func check(_ request: TransportRequest) throws {
        guard let url = request.url else {
            throw ApiClientError(.invalidURL, message: "the request has no URL (a modifier set it to nil)")
        }
        guard let scheme = url.scheme?.lowercased() else {
            throw ApiClientError(.invalidURL, message: "the URL \(Redaction.url(url)) is relative: give an absolute http or https URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ApiClientError(.invalidURL, message: "the URL's scheme \(scheme) is not http or https")
        }
        guard url.host?.isEmpty == false else {
            throw ApiClientError(.invalidURL, message: "the URL \(Redaction.url(url)) has no host")
        }
        let method = request.method.rawValue
        guard isToken(method) else {
            throw ApiClientError(.invalidMethod, message: "the method \(method.debugDescription) is not an HTTP token")
        }
        for field in request.headerFields {
            try checkField(field.name, field.value)
        }
    }

    /// Checks one header field. The built-in header modifiers call it as they set a field,
    /// because Foundation on Linux silently drops a value with a line break: by the time the
    /// whole request is checked, such a field is already gone.
    static func checkField(_ name: String, _ value: String) throws {
        guard isToken(name) else {
            throw ApiClientError(.invalidHeader, message: "the header name \(name.debugDescription) is not an HTTP token")
        }
        // The forbidden characters are all ASCII, and no byte of a multi-byte UTF-8 sequence is
        // ASCII: reading bytes finds exactly the scalars, without decoding them.
        guard !value.utf8.contains(where: isForbiddenInValue) else {
            throw ApiClientError(.invalidHeader, message: "the value of the header \(name) contains a control character")
        }
    }

    /// RFC 9110 section 5.6.2: one or more of letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// A control character other than a horizontal tab (RFC 9110 section 5.5): CR and LF above
    /// all, NUL, and DEL.
    private static func isForbiddenInValue(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }
}
