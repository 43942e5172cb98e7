import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: Foundation's URLSession, on Linux and Apple platforms alike.
///
/// It owns a session with a delegate, made from the configuration it is given, and works
/// around what URLSession gets wrong on Linux (swift-corelibs-foundation):
/// - it never lets URLSession follow a redirect (Linux drops a relative `Location`'s trailing
///   slash and a 307's body); the pipeline follows them (see ``RedirectPolicy``);
/// - it leaves the idle timeout to the pipeline (Linux truncates `timeoutInterval` to whole
///   seconds), keeping URLSession's own timer only as a backstop above it;
/// - it sends file and multipart bodies up to ``largestBodyInMemory`` from memory with
///   `uploadTask(with:from:)`: on Linux, `uploadTask(with:fromFile:)` crashes the process a
///   few calls after a server cut such an upload short. Larger ones are streamed with
///   `uploadTask(with:fromFile:)`, which sends a `Content-Length`, never through
///   `httpBodyStream`, which Linux always sends chunked;
/// - it hands the body to the pipeline chunk by chunk through `didReceive data`, buffered:
///   URLSession's only brake, `suspend()`, costs far more than it saves (Benchmarks/NOTES.md);
/// - it returns a 401 at once: on Linux, a 401 with `WWW-Authenticate: Basic` otherwise hangs
///   until the timeout (see `urlSession(_:task:didReceive:completionHandler:)` below);
/// - on Linux its delegate callbacks run where URLSession raises them (`InlineDelegateQueue`),
///   not after a hand-off to a delegate queue's thread, three or more per request.
///
/// The library answers no authentication challenge with credentials: authenticate with
/// modifiers such as `basic(userId:password:)` or `authentication(_:)`.
///
/// A request with ``TLSSettings`` goes through a session of the transport's own for those
/// settings (at most 64 of them, the least recently used invalidated first once its tasks end):
/// trust and pins are checked when a connection is made, so a pinned request never reuses a
/// connection that a request without those checks opened.
public final class URLSessionTransport: HTTPTransport {
    /// The session the requests without TLS settings go through.
    public var session: URLSession { own.session }
    private let own: DelegatedSession
    /// The sessions for requests with TLS settings, by settings (see `session(for:)`).
    let sessionsForSettings = BoundedTable<TLSSettings, DelegatedSession>(capacity: 64) { $0.session.finishTasksAndInvalidate() }

    /// Creates a transport with its own session made from `configuration`.
    ///
    /// The session gets no `URLCache`, on every platform: caching is a middleware's (the
    /// `HTTPCache` of `SwiftApiDslCache`), the same on every transport, and a second cache underneath would store each
    /// response twice and answer or revalidate behind its back (on Apple platforms URLSession's
    /// default cache does). On Linux it also avoids a crash: with a cache, swift-corelibs-foundation
    /// looks each request up on a background queue before the task has its protocol, and a
    /// cancellation landing in that window crashes the process ("Trying to access a behaviour for
    /// a task that in not in the registry"), as `CancellationStormWireTests` did under
    /// ThreadSanitizer. Requests then behave as over AsyncHTTPClient, which has no implicit cache.
    public init(configuration: URLSessionConfiguration = .default) {
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        configuration.urlCache = nil
        own = DelegatedSession(configuration: configuration)
    }

    /// The sessions are invalidated once their running tasks end, which releases their
    /// delegates, their connections and themselves.
    deinit {
        session.finishTasksAndInvalidate()
        for made in sessionsForSettings.removeAll() { made.session.finishTasksAndInvalidate() }
    }

    /// The session a request with `tls` goes through, and its delegate: the transport's own
    /// ``session`` without settings (or with settings that change nothing), otherwise the one
    /// made for those settings, on the same configuration. Call `release` once the task is made:
    /// a session evicted meanwhile is invalidated only then, never before its task exists.
    func session(for tls: TLSSettings?) -> (value: DelegatedSession, release: @Sendable () -> Void) {
        guard let tls, tls != TLSSettings() else { return (own, {}) }
        return sessionsForSettings.lease(tls) { DelegatedSession(configuration: own.session.configuration) }
    }

    /// The transport made for a user session by ``shared(for:)``, both held weakly.
    private struct MadeFor {
        weak var session: URLSession?
        weak var transport: URLSessionTransport?
    }

    /// The transports made for user sessions, by session. Holding neither strongly, the table
    /// never keeps a session or a transport alive; entries whose session or transport is gone
    /// are dropped when the next transport is made.
    private static let transports = Locked<[ObjectIdentifier: MadeFor]>([:])

    /// The transport for `URLSession.shared`, kept for the life of the process, as that session is.
    private static let forSharedSession = URLSessionTransport(configuration: URLSession.shared.configuration)

    /// The transport that sends on behalf of `urlSession`, made from its configuration.
    ///
    /// Clients made from the same `urlSession` get the same transport, and so share its session
    /// and connections, while `urlSession` lives and something (a client) still holds that
    /// transport. Nothing else is kept: the transport, with its session and connections, is
    /// released with the last client that uses it, and `urlSession` is never retained. Only
    /// `URLSession.shared`'s transport is kept for the life of the process.
    public static func shared(for urlSession: URLSession) -> URLSessionTransport {
        if urlSession === URLSession.shared { return forSharedSession }
        let key = ObjectIdentifier(urlSession)
        return transports.withLock { table in
            // An identifier is reused once its session is gone: an entry counts only for its own session.
            if let made = table[key], made.session === urlSession, let transport = made.transport { return transport }
            table = table.filter { $0.value.session != nil && $0.value.transport != nil }
            let transport = URLSessionTransport(configuration: urlSession.configuration)
            table[key] = MadeFor(session: urlSession, transport: transport)
            return transport
        }
    }

    /// The `Cookie` field the session adds from its cookie storage to a request for `url`, if any.
    public func cookieField(for url: URL) -> String? {
        let configuration = session.configuration
        guard configuration.httpShouldSetCookies, let cookies = configuration.httpCookieStorage?.cookies(for: url),
              !cookies.isEmpty
        else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// Sends the request through the session and returns the head as soon as it arrives; the
    /// body follows as the session delivers it.
    ///
    /// - Parameters:
    ///   - request: The request to send, as the middlewares left it.
    ///   - control: What the pipeline tells this exchange and hears back from it.
    /// - Returns: The status and header fields, with the body still arriving.
    public func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
        try Task.checkCancellation()
        // URLSession refuses a GET with a body (URLError -1103, on Linux and Apple platforms alike).
        if request.method == .get, request.httpBody != nil || request.body != nil {
            throw ApiClientError(.unsupportedByTransport, message: "URLSession cannot send a GET request with a body; send it with another method, or through a transport that can")
        }
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation has no trust evaluation or client certificate of its own to
        // hand a delegate: rather than send unchecked, a request with TLS settings is refused.
        if let tls = request.tls, tls != TLSSettings() {
            throw ApiClientError(.tlsUnsupported, message: "URLSession on Linux cannot enforce the TLS settings "
                                 + "(private authorities, pins, a client identity) for \(request.url?.host ?? "the request"); "
                                 + "nothing was sent: use the AsyncHTTPClient transport (the TLS and pinning article)")
        }
        #endif
        var urlRequest = request.urlRequest
        urlRequest.timeoutInterval = Self.backstopTimeout(for: urlRequest.timeoutInterval)

        var uploadData: Data?
        var uploadFile: URL?
        var temporaryFile: URL?
        switch request.body {
        case nil:
            break
        case .stream(let streamed):
            // Gathered first, see `gather(_:control:)`: in memory up to `largestBodyInMemory`,
            // beyond that in a temporary file.
            switch try await Self.gather(streamed, control: control) {
            case .memory(let data): uploadData = data
            case .file(let file): (uploadFile, temporaryFile) = (file, file)
            }
        case .multipart(let form) where form.isInMemory:
            urlRequest.httpBody = try RequestBody.multipart(form).encodedData()
        case let body? where try body.contentLength() <= Self.largestBodyInMemory:
            uploadData = try body.encodedData()
        case .file(let url):
            uploadFile = url
        case .multipart(let form):
            // Named after the boundary (letters, digits and `-` of it) so a form's file can be found.
            let tag = String(form.boundary.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }.prefix(70))
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("SwiftApiDsl-multipart-\(tag)-\(UUID().uuidString)")
            temporaryFile = file
            do {
                try await Self.writeOffTheCooperativePool(form, to: file, control: control)
            } catch {
                try? FileManager.default.removeItem(at: file)
                throw error
            }
            uploadFile = file
        }
        // A session of its own for TLS settings: see the type's documentation.
        let chosen = self.session(for: request.tls)
        let (session, delegate) = (chosen.value.session, chosen.value.delegate)
        let task: URLSessionTask = if let uploadData {
            session.uploadTask(with: urlRequest, from: uploadData)
        } else if let uploadFile {
            session.uploadTask(with: urlRequest, fromFile: uploadFile)
        } else {
            session.dataTask(with: urlRequest)
        }
        let exchange = URLSessionExchange(request: urlRequest, control: control, temporaryFile: temporaryFile, tls: request.tls)
        // Released once the task runs: an evicted session then finishes it before invalidating.
        defer { chosen.release() }
        return try await delegate.run(task, exchange: exchange)
    }
}

extension URLSessionTransport {
    /// The largest file or multipart body sent from memory, 8 MiB; larger ones are streamed
    /// from disk.
    ///
    /// On Linux, an upload that the server cuts short (a reset mid-body) returns
    /// `URLError(.networkConnectionLost)` on either path, but through `uploadTask(with:fromFile:)`
    /// swift-corelibs-foundation then crashes the process a few calls later (a `try!` on a
    /// libcurl error while pausing); through `uploadTask(with:from:)` it did not in hundreds of
    /// calls (`FaultWireTests.cutUploadsOfFilesAndFormsFailCleanlyEveryTime`). Reading the body
    /// costs its size in memory for the time of the upload, hence the bound; above it the
    /// crash remains possible, and the AsyncHTTPClient transport is the answer (Docs/LinuxNotes.md).
    public static let largestBodyInMemory: Int64 = 8 << 20

    /// The longest timer handed to URLSession: a week, far beyond any idle timeout a caller means.
    static let longestBackstop: TimeInterval = 7 * 24 * 3600

    /// URLSession's own timer for a request whose idle timeout is `interval`.
    ///
    /// The pipeline enforces the idle timeout; URLSession's timer is only a backstop, set above
    /// it: on Linux it counts in whole seconds and would fire at once for 0.5. `0` or less (and
    /// NaN) mean "no timer", which URLSession does not know: on Linux `0` sometimes fails at once.
    /// Infinite and huge values crash swift-corelibs-foundation, which converts them to libcurl's
    /// integer milliseconds unchecked. Both get ``longestBackstop``.
    static func backstopTimeout(for interval: TimeInterval) -> TimeInterval {
        guard interval > 0, interval < longestBackstop else { return longestBackstop }
        return interval.rounded(.up) + 1
    }

    /// Encodes `form` into `file` on a dispatch queue: copying a large file takes seconds, and
    /// Swift concurrency has only a thread per core to lend. Cancelling the caller stops the copy
    /// at the next chunk; so does an abort of the exchange.
    private static func writeOffTheCooperativePool(_ form: MultipartFormData, to file: URL, control: ExchangeControl) async throws {
        let cancelled = Locked(false)
        control.onAbort { _ in cancelled.withLock { $0 = true } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try form.write(to: file) { cancelled.withLock { $0 } } })
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
    }
}

/// A session and the delegate that routes its callbacks: each session has its own, since task
/// identifiers are unique only within a session.
struct DelegatedSession: @unchecked Sendable {
    let session: URLSession
    let delegate = URLSessionTransportDelegate()

    /// A new session on `configuration` with a delegate of its own.
    init(configuration: URLSessionConfiguration) {
        #if canImport(FoundationNetworking)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: InlineDelegateQueue())
        #else
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        #endif
    }
}

/// Routes the session's callbacks to the exchange they concern.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let exchanges = Locked<[Int: URLSessionExchange]>([:])

    /// Starts `task` and returns once its response head has arrived, with the body to come.
    func run(_ task: URLSessionTask, exchange: URLSessionExchange) async throws -> TransportResponse {
        // On loopback the head often arrives before this closure returns; see `Locked.synchronize()`.
        defer { exchange.synchronize() }
        return try await withCheckedThrowingContinuation { continuation in
            exchange.begin(continuation: continuation)
            exchanges.withLock { $0[task.taskIdentifier] = exchange }
            task.resume()
            // After `resume()`: an exchange aborted already cancels the running task at once.
            exchange.control.onAbort { reason in
                exchange.stopReceiving(reason)
                task.cancelOffTheCaller()
            }
        }
    }

    private func exchange(of task: URLSessionTask) -> URLSessionExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        // An interim answer (`100 Continue`, `103 Early Hints`) is not the response: on Linux
        // libcurl hands it over like one, and the final head follows on the same task.
        if let interim = response as? HTTPURLResponse, interim.statusCode / 100 == 1, interim.statusCode != 101 {
            return completionHandler(.allow)
        }
        let exchange = exchange(of: dataTask)
        exchange?.receive(response)
        completionHandler(.allow)
        // The caller gets the head at once. Deferring it behind the delegate queue (as the
        // AsyncHTTPClient transport defers it behind the event loop) cost more CPU per request
        // than it saved in wake-ups, measured A/B with Scripts/bench (Benchmarks/NOTES.md).
        exchange?.deliverHead()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(of: dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        exchange(of: task)?.control.didSend(Int(bytesSent))
    }

    /// Redirects are the pipeline's business: the 3xx response is delivered as it is.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// A 401 is delivered as it is, with its body. On Apple platforms, TLS challenges are answered
    /// from the request's ``TLSSettings``.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation raises the challenge of a 401 only after it delivered the whole
        // response, and `.performDefaultHandling` without a stored credential never resumes the
        // task: it hangs until the timeout. Cancelling ends it; the exchange turns that
        // cancellation back into the end of the 401 it already delivered.
        exchange(of: task)?.noteChallengeCancelled()
        // The callback runs on URLSession's own queue (`InlineDelegateQueue`), which ending the
        // challenge (a task cancellation) may wait for.
        DispatchQueue.global().async { completionHandler(.cancelAuthenticationChallenge, nil) }
        #else
        // Server trust and client certificates are answered from the request's `TLSSettings`
        // (URLSessionTrust.swift); without one, or for another challenge, URLSession decides.
        let exchange = exchange(of: task)
        guard let tls = exchange?.tls else { return completionHandler(.performDefaultHandling, nil) }
        let (disposition, credential) = tls.answer(challenge, failing: exchange)
        completionHandler(disposition, credential)
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }?.complete(response: task.response, error: error)
    }
}
