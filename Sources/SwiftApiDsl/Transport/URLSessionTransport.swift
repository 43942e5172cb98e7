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
/// - it enforces `timeoutInterval` itself, as an idle timeout, because Linux truncates it to
///   whole seconds;
/// - it streams file and multipart bodies with `uploadTask(with:fromFile:)`, which sends a
///   `Content-Length`, never through `httpBodyStream`, which Linux always sends chunked;
/// - it streams downloads to the caller's file through `didReceive data`;
/// - it returns a 401 at once: on Linux, a 401 with `WWW-Authenticate: Basic` otherwise hangs
///   until the timeout (see `urlSession(_:task:didReceive:completionHandler:)` below).
///
/// The library answers no authentication challenge with credentials: authenticate with
/// modifiers such as `basic(userId:password:)` or `authentication(_:)`.
public final class URLSessionTransport: HTTPTransport {
    /// The session the requests go through.
    public let session: URLSession
    private let delegate: URLSessionTransportDelegate

    /// Creates a transport with its own session made from `configuration`.
    public init(configuration: URLSessionConfiguration = .default) {
        let delegate = URLSessionTransportDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// One transport per user session, kept for the life of the process, so that clients made
    /// from the same `URLSession` share connections.
    private static let transports = Locked<[ObjectIdentifier: (URLSession, URLSessionTransport)]>([:])

    /// The transport that sends on behalf of `urlSession`, made from its configuration.
    public static func shared(for urlSession: URLSession) -> URLSessionTransport {
        transports.withLock { table in
            if let (_, transport) = table[ObjectIdentifier(urlSession)] { return transport }
            let transport = URLSessionTransport(configuration: urlSession.configuration)
            table[ObjectIdentifier(urlSession)] = (urlSession, transport)
            return transport
        }
    }

    public func data(for request: TransportRequest) async throws -> (Data, HTTPURLResponse) {
        try await send(request, into: .memory)
    }

    public func download(for request: TransportRequest, to file: URL) async throws -> HTTPURLResponse {
        try await send(request, into: .file(file)).1
    }

    private func send(_ request: TransportRequest, into sink: URLSessionTaskState.Sink) async throws -> (Data, HTTPURLResponse) {
        try Task.checkCancellation()
        // URLSession refuses a GET with a body (URLError -1103, on Linux and Apple platforms alike).
        if request.urlRequest.httpMethod ?? "GET" == "GET", request.urlRequest.httpBody != nil || request.body != nil {
            throw UnsupportedRequestError(reason: "URLSession cannot send a GET request with a body; send it with another method, or through a transport that can")
        }
        var urlRequest = request.urlRequest
        let idleTimeout = urlRequest.timeoutInterval
        // URLSession's own timer is only a backstop, set above ours: on Linux it counts in whole
        // seconds and would fire at once for 0.5.
        if idleTimeout > 0 { urlRequest.timeoutInterval = idleTimeout.rounded(.up) + 1 }

        var uploadFile: URL?
        var temporaryFile: URL?
        defer { temporaryFile.map { try? FileManager.default.removeItem(at: $0) } }
        switch request.body {
        case nil:
            break
        case .file(let url):
            uploadFile = url
        case .multipart(let form) where form.isInMemory:
            urlRequest.httpBody = try form.encodedData()
        case .multipart(let form):
            // Named after the boundary (letters, digits and `-` of it) so a form's file can be found.
            let tag = String(form.boundary.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }.prefix(70))
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("SwiftApiDsl-multipart-\(tag)-\(UUID().uuidString)")
            temporaryFile = file
            try await Self.writeOffTheCooperativePool(form, to: file)
            uploadFile = file
        }
        // The state first: it can throw (opening the file), and a task once made must be run.
        let state = try URLSessionTaskState(request: request.urlRequest, sink: sink, idleTimeout: idleTimeout)
        let task = uploadFile.map { session.uploadTask(with: urlRequest, fromFile: $0) } ?? session.dataTask(with: urlRequest)
        return try await delegate.run(task, state: state)
    }
}

extension URLSessionTransport {
    /// Encodes `form` into `file` on a dispatch queue: copying a large file takes seconds, and
    /// Swift concurrency has only a thread per core to lend. Cancelling the caller stops the copy
    /// at the next chunk.
    private static func writeOffTheCooperativePool(_ form: MultipartFormData, to file: URL) async throws {
        let cancelled = Locked(false)
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

/// Routes the session's callbacks to the state of the task they concern.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let states = Locked<[Int: URLSessionTaskState]>([:])

    /// Runs `task` to completion; cancelling the calling task cancels it at once.
    func run(_ task: URLSessionTask, state: URLSessionTaskState) async throws -> (Data, HTTPURLResponse) {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.begin(task, continuation: continuation)
                states.withLock { $0[task.taskIdentifier] = state }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    private func state(of task: URLSessionTask) -> URLSessionTaskState? {
        states.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        state(of: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state(of: dataTask)?.receive(data, cancelling: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        state(of: task)?.noteActivity()
    }

    /// Redirects are the pipeline's business: the 3xx response is delivered as it is.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// A 401 is delivered as it is, with its body.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation raises the challenge of a 401 only after it delivered the whole
        // response, and `.performDefaultHandling` without a stored credential never resumes the
        // task: it hangs until the timeout. Cancelling ends it; the task state turns that
        // cancellation back into the 401 it already holds.
        state(of: task)?.noteChallengeCancelled()
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        completionHandler(.performDefaultHandling, nil)
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let state = states.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        state?.complete(response: task.response, error: error)
    }
}
