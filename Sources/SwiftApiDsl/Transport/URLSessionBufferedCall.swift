import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession transport's buffered path: a data task with a completion handler, whose answer
/// comes whole in one call, for an exchange that nothing needs chunk by chunk
/// (``ExchangeControl/isBuffered``).
///
/// The per-chunk path's session delegate receives the head, each chunk and the end as separate
/// operations on URLSession's delegate queue, each a thread hand-off; here URLSession gathers the
/// body on its own queue and makes one hand-off, for the completion (Docs/Performance.md). What
/// stays the same on both paths:
/// - **Redirects** are refused by the session's delegate, which URLSession asks for every task of
///   the session, so the pipeline follows them by its ``RedirectPolicy``, as on the per-chunk path.
/// - **The idle timeout** is URLSession's own timer, which restarts at every chunk received: an
///   idle timer, like the pipeline's. On Linux it counts whole seconds, so only a call whose
///   timeout is a whole number of seconds (or none) takes this path; any other takes the
///   per-chunk path, where the pipeline times it to the ``IdleTicker``'s 20 ms.
/// - **Cancelling** the calling task, or any abort of the exchange, cancels the URLSession task.
/// - **A failure after the head** (a body cut short, a stall past the timeout) reaches the caller
///   as the same `RequestError.transport`. URLSession reports no head for it (on Linux
///   `task.response` stays `nil`), so a middleware sees `next` throw rather than a head whose body
///   then fails; and a call with a retry policy is never buffered, since retries act on heads
///   (a body that began to arrive is not sent for again).
/// - **A 401** comes back at once with its body. On Linux, swift-corelibs-foundation raises an
///   authentication challenge for a 401 that carries `WWW-Authenticate` only after it has read
///   the whole answer, and then can neither complete the task with it (`.performDefaultHandling`
///   hangs until the timeout) nor give its body to anyone but a per-chunk delegate (a cancelled
///   challenge fails the task with `URLError(.cancelled)`). So on Linux only requests that
///   carry no `Authorization` and whose method is safe (GET, HEAD, OPTIONS) take this path, and
///   for the rare challenged 401 among them: one that declares an empty body (or answers a
///   HEAD) is delivered from the challenge's head; any other is sent again on the per-chunk
///   path (a safe request may be repeated, RFC 9110 §9.2.1), which returns it whole.
enum URLSessionBufferedCall {
    /// Whether `request` under `control` takes the buffered path.
    static func isEligible(_ request: TransportRequest, control: ExchangeControl) -> Bool {
        guard control.isBuffered, request.body == nil, engineTimeout(for: control.idleTimeout) != nil else { return false }
        #if canImport(FoundationNetworking)
        guard [HttpMethod.get, .head, .options].contains(request.method),
              request.headerFields[HeaderField.authorization.rawValue] == nil else { return false }
        #endif
        return true
    }

    /// URLSession's own timer for an idle timeout of `interval`, when it keeps that timeout
    /// exactly; `nil` when only the pipeline can (a fraction of a second, on Linux).
    static func engineTimeout(for interval: TimeInterval) -> TimeInterval? {
        // No timeout (0, negative, NaN, infinite or beyond a week): the week-long backstop.
        guard interval > 0, interval < URLSessionTransport.longestBackstop else { return URLSessionTransport.longestBackstop }
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation truncates the interval to whole seconds.
        guard interval >= 1, interval.rounded(.down) == interval else { return nil }
        #endif
        return interval
    }

    /// Sends `request` and returns the whole answer, or `nil` when the per-chunk path must send
    /// it again (a challenged 401 with a body, on Linux; see above).
    ///
    /// A data task with a completion handler: URLSession gathers the body on its own queue and
    /// calls the handler once. The task is kept, so that an abort cancels it.
    static func send(_ request: URLRequest, on session: URLSession, challenges: BufferedChallenges,
                     control: ExchangeControl) async throws -> TransportResponse? {
        var request = request
        request.timeoutInterval = engineTimeout(for: control.idleTimeout) ?? URLSessionTransport.longestBackstop
        control.leaveIdleTimeoutToEngine()
        let completion = Completion()
        let task = session.dataTask(with: request) { data, response, error in
            completion.finish(data: data, response: response, error: error)
        }
        let (data, response, error) = await completion.wait(starting: {
            task.resume()
            // After `resume()`: an exchange aborted already cancels the running task at once.
            control.onAbort { _ in task.cancelOffTheCaller() }
        })
        if let error {
            if (error as? URLError)?.code == .cancelled, let challenged = challenges.take(for: task), !control.isAborted {
                guard request.httpMethod == HttpMethod.head.rawValue || challenged.expectedContentLength == 0 else { return nil }
                return TransportResponse(challenged, body: ResponseBody(Data()))
            }
            throw URLSessionFailure.map(error, for: request)
        }
        guard let http = response as? HTTPURLResponse else {
            throw RequestError.fatal(.notHTTPResponse(request, response))
        }
        let whole = TransportResponse(http, body: ResponseBody(data ?? Data()))
        if URLSessionExchange.hasConflictingLengths(whole.headerFields) {
            throw URLSessionFailure.failure(.badServerResponse, for: request, underlying: nil)
        }
        return whole
    }

    /// What the completion handler of one buffered task received, handed to the waiting caller.
    private final class Completion: Sendable {
        typealias Outcome = (Data?, URLResponse?, (any Error)?)
        private let waiter = Locked<CheckedContinuation<Outcome, Never>?>(nil)

        /// Waits for ``finish(data:response:error:)``, after running `start`.
        func wait(starting start: () -> Void) async -> Outcome {
            // The handler may resume the caller before it reaches its `await`; see `Locked.synchronize()`.
            defer { waiter.synchronize() }
            return await withCheckedContinuation { continuation in
                waiter.withLock { $0 = continuation }
                start()
            }
        }

        func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
            let waiting = waiter.withLock { waiter in
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume(returning: (data, response, error))
        }
    }
}

/// The 401s whose challenge the session's delegate ended for buffered tasks (Linux), until
/// their calls take them, by task.
final class BufferedChallenges: Sendable {
    private let pending = Locked<[Int: HTTPURLResponse]>([:])

    /// Notes the 401 that ended `task`'s challenge.
    func note(_ response: HTTPURLResponse, of task: URLSessionTask) {
        pending.withLock { $0[task.taskIdentifier] = response }
    }

    /// The 401 noted for `task`, once.
    func take(for task: URLSessionTask) -> HTTPURLResponse? {
        pending.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }
}
