import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When and how soon a failed request is sent again.
///
/// ```swift
/// client.retryPolicy(.default)                                  // 3 attempts for idempotent methods
/// client.post("orders").retryPolicy(.default.retryingPost())    // a POST the server deduplicates
/// client.retryPolicy(RetryPolicy(maxAttempts: 5, initialDelay: 0.2))
/// ```
/// A failure is retried when the method is one of ``retryableMethods`` and the failure is one of
/// ``retryableStatusCodes`` or ``retryableErrorCodes``. The wait before attempt *n + 1* is
/// `initialDelay × multiplier^(n − 1)`, at most ``maxDelay``, shortened at random by up to
/// ``jitter`` of itself so that many clients do not retry in step. The wait the server asks for
/// (``serverDelay``: the `Retry-After` header unless you read it elsewhere) replaces that wait when
/// it is at most ``maxRetryAfter``; a longer one ends the retries (waiting less than the server
/// asked would only be refused again).
public struct RetryPolicy: Sendable {
    /// The most attempts in all, the first included: `1` never retries.
    public var maxAttempts: Int
    /// The wait before the second attempt, in seconds.
    public var initialDelay: TimeInterval
    /// How much each wait grows over the one before.
    public var multiplier: Double
    /// The longest wait computed by backoff, in seconds.
    public var maxDelay: TimeInterval
    /// The largest part of each wait taken off at random, from `0` (none) to `1`.
    public var jitter: Double
    /// The longest `Retry-After` honoured, in seconds; a longer one ends the retries.
    public var maxRetryAfter: TimeInterval
    /// The response statuses that are retried.
    public var retryableStatusCodes: Set<Int>
    /// The transport failures that are retried (connection errors and timeouts by default).
    public var retryableErrorCodes: Set<URLError.Code>
    /// The methods that are retried: by default the idempotent ones, never `POST` or `PATCH`.
    public var retryableMethods: Set<HttpMethod>
    /// Reads the seconds a retryable status's response asks to wait, `nil` for none. Unset (the
    /// default), it is the `Retry-After` header, in seconds or as an HTTP date. Set it for a server
    /// that says so elsewhere; it gets the response with the first 64 KiB of its body:
    /// ```swift
    /// var policy = RetryPolicy.default
    /// policy.serverDelay = { response in   // Matrix: {"errcode": "M_LIMIT_EXCEEDED", "retry_after_ms": 2000}
    ///     (try? JSONDecoder().decode(RateLimited.self, from: response.body)).map { Double($0.retry_after_ms) / 1000 }
    /// }
    /// ```
    public var serverDelay: (@Sendable (Response<Data>) -> TimeInterval?)?

    /// Creates a policy; every parameter has the default of ``default``.
    public init(
        maxAttempts: Int = 3,
        initialDelay: TimeInterval = 0.5,
        multiplier: Double = 2,
        maxDelay: TimeInterval = 30,
        jitter: Double = 0.5,
        maxRetryAfter: TimeInterval = 60,
        retryableStatusCodes: Set<Int> = [408, 429, 502, 503, 504],
        retryableErrorCodes: Set<URLError.Code> = [.timedOut, .cannotConnectToHost, .networkConnectionLost,
                                                   .notConnectedToInternet, .dnsLookupFailed, .cannotFindHost],
        retryableMethods: Set<HttpMethod> = [.get, .head, .options, .put, .delete]
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = max(0, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(0, maxDelay)
        self.jitter = min(max(jitter, 0), 1)
        self.maxRetryAfter = max(0, maxRetryAfter)
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableErrorCodes = retryableErrorCodes
        self.retryableMethods = retryableMethods
    }

    /// Three attempts, 0.5 s then 1 s apart (less jitter), for GET, HEAD, OPTIONS, PUT and DELETE
    /// failing with 408, 429, 502, 503, 504, a connection error or a timeout.
    public static let `default` = RetryPolicy()

    /// One attempt: nothing is retried.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The same policy, retrying `POST` too: for endpoints that are safe to repeat (an idempotency
    /// key, a server that deduplicates).
    public func retryingPost() -> RetryPolicy {
        var copy = self
        copy.retryableMethods.insert(.post)
        return copy
    }
}

extension RetryPolicy {
    /// How an attempt failed, as the policy judges it.
    enum Failure {
        /// The server answered with this status and, maybe, asked to wait this many seconds.
        case status(Int, serverDelay: TimeInterval?)
        /// The exchange failed with this error.
        case transport(Error)
    }

    /// What `response` asks to wait, by ``serverDelay`` or else its `Retry-After` header.
    func serverDelay(of response: Response<Data>, now: Date) -> TimeInterval? {
        if let serverDelay { return serverDelay(response) }
        return response.headerFields["Retry-After"].flatMap { RetryAfter($0)?.delay(from: now) }
    }

    /// The seconds to wait before the next attempt, or `nil` when the request is not retried.
    ///
    /// - Parameters:
    ///   - attempt: the attempt that failed, from 1.
    ///   - random: a number in `0..<1` that shortens the wait by up to ``jitter`` of it.
    func delay(after attempt: Int, method: HttpMethod, now: Date, random: Double = Double.random(in: 0..<1),
               failing failure: Failure) -> TimeInterval? {
        guard attempt < maxAttempts, retryableMethods.contains(method) else { return nil }
        switch failure {
        case .status(let status, let serverDelay):
            guard retryableStatusCodes.contains(status) else { return nil }
            if let wait = serverDelay.map({ max(0, $0) }) { return wait <= maxRetryAfter ? wait : nil }
        case .transport(let error):
            guard let code = (error as? URLError)?.code, retryableErrorCodes.contains(code) else { return nil }
        }
        let backoff = min(maxDelay, initialDelay * pow(multiplier, Double(attempt - 1)))
        return backoff * (1 - jitter * min(max(random, 0), 1))
    }
}
