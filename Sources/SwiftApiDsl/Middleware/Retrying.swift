import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Middleware {
    /// The built-in retries, as a middleware: sends the same request again after a failure that
    /// `policy` retries (a retryable status, or a transport error before the response head),
    /// waiting as it says. The last attempt's response goes on whatever its status; `record`
    /// holds the number of the attempt under way, and a thrown error records the count in an ``ApiClientError`` (`.failedAfterRetries`) when there was
    /// more than one. A failure while reading a body that has begun to arrive is not retried:
    /// part of it may have been read already (a download continues such a body itself, with
    /// `Range`, in a new pass through this chain: Download/Download.swift).
    /// `acceptable` is the caller's status range, which a retried status is reported outside of.
    static func retrying(_ policy: RetryPolicy, record: CallRecord, acceptable: Range<Int>, trace: RequestTrace?) -> Middleware {
        Middleware("retries") { request, next in
            try await RetryPolicy.retrying(trace: trace) { attempt in
                record.attempts = attempt
                do {
                    var response = try await next(request)
                    guard policy.retryableStatusCodes.contains(response.statusCode), attempt < policy.maxAttempts,
                          policy.retryableMethods.contains(request.method)
                    else { return .done(response) }
                    // The wait may be in the body (``RetryPolicy/serverDelay``): its first bytes are
                    // read ahead, and go on with the rest if this response is the result after all.
                    let (first, body) = (try? await Exchange.prefetch(response.body, upTo: 64 * 1024)) ?? (Data(), .empty)
                    let answered = Response(body: first, head: response.head(for: request.url))
                    let now = Date()
                    guard let delay = policy.delay(after: attempt, method: request.method, now: now, failing: .status(
                        response.statusCode, serverDelay: policy.serverDelay(of: answered, now: now)))
                    else {
                        response.body = body
                        return .done(response)
                    }
                    await body.drain()
                    let (sent, status) = (request.urlRequest, ApiClientError.unacceptableStatusCode(response.statusCode, acceptable: acceptable))
                    return .retry(.validate(sent, data: first, response: answered.httpResponse, error: status), of: sent, after: delay)
                } catch let error as RequestError {
                    guard case .transport(_, let cause) = error, !error.isCancellation,
                          let delay = policy.delay(after: attempt, method: request.method, now: Date(), failing: .transport(cause))
                    else { return .failed(error) }
                    return .retry(error, of: request.urlRequest, after: delay)
                }
            }
        }
    }
}

extension RetryPolicy {
    /// What one attempt of a call that may be retried came to.
    enum Attempt<Value> {
        /// The call's result.
        case done(Value)
        /// A failure the policy does not retry: the call ends with it.
        case failed(RequestError)
        /// A failure to retry after `delay` seconds; a wait cancelled names `request`.
        case retry(RequestError, of: URLRequest, after: TimeInterval)
        /// Another go that is not a retry (a download started again or paused): not counted.
        case again
    }

    /// The one retry loop, for retries and a download's continuation alike. Runs `attempt` with
    /// its number (from 1) until it is done or failed; before each retry, tells the observers,
    /// then waits as long as the attempt said (a day at most). When the task is cancelled before
    /// the wait (the engine answered an aborted attempt: no retry to announce) or during it, the
    /// call throws `RequestError.transport(request, CancellationError())`. Once more than one
    /// attempt was made, that error and a `.failed` one record their count
    /// (``ApiClientError/recording(_:in:)``); what `attempt` throws itself goes on as it is.
    static func retrying<Value>(trace: RequestTrace?, _ attempt: (Int) async throws -> Attempt<Value>) async throws -> Value {
        var number = 1
        while true {
            switch try await attempt(number) {
            case .done(let value): return value
            case .again: continue
            case .failed(let error): throw ApiClientError.recording(number, in: error)
            case .retry(let error, let request, let delay):
                do {
                    try Task.checkCancellation()
                    trace?.retrying(attempt: number + 1, error: error, delay: delay) // observe: retry
                    try await Task.sleep(nanoseconds: UInt64(min(delay, 86_400) * 1_000_000_000))
                } catch {
                    throw ApiClientError.recording(number, in: .transport(request, CancellationError()))
                }
                number += 1
            }
        }
    }
}

extension ApiClientError {
    /// `error` with its cause wrapped in a `.failedAfterRetries` error that records `attempts`;
    /// `error` as it is after one attempt. When the last attempt recorded retries of its own (a
    /// download's continuation, retried by the chain), they count too, under one wrapper.
    static func recording(_ attempts: Int, in error: RequestError) -> RequestError {
        guard attempts > 1, let last = error.underlyingError else { return error }
        let sent = attempts - 1 + error.attempts
        let retried = ApiClientError(.failedAfterRetries, message: "after \(sent) attempts: \(Redaction.describe(last))", attempts: sent, underlyingError: last)
        return switch error {
        case .transport(let request, _): .transport(request, retried)
        case .validate(let request, let data, let response, _): .validate(request, data: data, response: response, error: retried)
        default: error
        }
    }
}
