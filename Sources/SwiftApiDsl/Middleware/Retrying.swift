import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Middleware {
    /// The built-in retries, as a middleware: sends the same request again after a failure that
    /// `policy` retries (a retryable status, or a transport error before the response head),
    /// waiting as it says. The last attempt's response goes on whatever its status; `record`
    /// counts the attempts, and a thrown error records the count in an ``ApiClientError`` (`.failedAfterRetries`) when there was
    /// more than one. A failure while reading a body that has begun to arrive is not retried:
    /// part of it may have been read already (a download continues such a body itself, with
    /// `Range`, in a new pass through this chain: Download/Download.swift).
    /// `acceptable` is the caller's status range, which a retried status is reported outside of.
    static func retrying(_ policy: RetryPolicy, record: CallRecord, acceptable: Range<Int>, trace: RequestTrace?) -> Middleware {
        Middleware("retries") { request, next in
            var attempt = 1
            while true {
                let failed: (error: RequestError, delay: TimeInterval)
                do {
                    var response = try await next(request)
                    guard policy.retryableStatusCodes.contains(response.statusCode), attempt < policy.maxAttempts,
                          policy.retryableMethods.contains(request.method)
                    else {
                        record.attempts = attempt
                        return response
                    }
                    // The wait may be in the body (``RetryPolicy/serverDelay``): its first bytes are
                    // read ahead, and go on with the rest if this response is the result after all.
                    let (first, body) = (try? await Exchange.prefetch(response.body, upTo: 64 * 1024)) ?? (Data(), .empty)
                    let answered = Response(body: first, head: response.head(for: request.url))
                    let now = Date()
                    guard let delay = policy.delay(after: attempt, method: request.method, now: now, failing: .status(
                        response.statusCode, serverDelay: policy.serverDelay(of: answered, now: now)))
                    else {
                        record.attempts = attempt
                        response.body = body
                        return response
                    }
                    await body.drain()
                    let status = ApiClientError.unacceptableStatusCode(response.statusCode, acceptable: acceptable)
                    failed = (.validate(request.urlRequest, data: first, response: answered.httpResponse, error: status), delay)
                } catch let error as RequestError {
                    guard case .transport(_, let cause) = error, !error.isCancellation,
                          let delay = policy.delay(after: attempt, method: request.method, now: Date(), failing: .transport(cause))
                    else { throw attempt > 1 ? ApiClientError.recording(attempt, in: error) : error }
                    failed = (error, delay)
                }
                do throws(RequestError) {
                    try await RetryPolicy.wait(failed.delay, before: attempt + 1, after: failed.error, of: request.urlRequest, trace: trace)
                } catch {
                    // Cancelled: the call ends at once, counting the attempts made.
                    throw attempt > 1 ? ApiClientError.recording(attempt, in: error) : error
                }
                attempt += 1
            }
        }
    }
}

extension RetryPolicy {
    /// The wait before attempt `next` of a call whose last attempt failed with `error`, the one
    /// for retries and a download's continuation alike: told to the observers, then `delay`
    /// seconds (a day at most). Throws `RequestError.transport(request, CancellationError())`
    /// when the task is cancelled before (the engine answered an aborted attempt: no retry to
    /// announce) or during it.
    static func wait(_ delay: TimeInterval, before next: Int, after error: RequestError, of request: URLRequest,
                     trace: RequestTrace?) async throws(RequestError) {
        let cancelled = RequestError.transport(request, CancellationError())
        if Task.isCancelled { throw cancelled }
        trace?.retrying(attempt: next, error: error, delay: delay) // observe: retry
        do {
            try await Task.sleep(nanoseconds: UInt64(min(delay, 86_400) * 1_000_000_000))
        } catch {
            throw cancelled
        }
    }
}

extension ApiClientError {
    /// `error` with its cause wrapped in a `.failedAfterRetries` error that records `attempts`.
    static func recording(_ attempts: Int, in error: RequestError) -> RequestError {
        let retried = { (cause: any Error) in
            ApiClientError(.failedAfterRetries, message: "after \(attempts) attempts: \(Redaction.describe(cause))", attempts: attempts, underlyingError: cause)
        }
        return switch error {
        case .transport(let request, let cause): .transport(request, retried(cause))
        case .validate(let request, let data, let response, let cause): .validate(request, data: data, response: response, error: retried(cause))
        default: error
        }
    }
}
