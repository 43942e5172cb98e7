/// The failure of a request that was sent more than once under a ``RetryPolicy``: the last
/// attempt's error and how many attempts were made.
///
/// It stands in a ``RequestError/transport(_:_:)`` or ``RequestError/validate(_:data:response:error:)``
/// in place of the last attempt's error. ``RequestError/underlyingError`` and
/// ``RequestError/validationError`` see through it, and ``RequestError/attempts`` reads the count:
/// ```swift
/// let requestError = error.asRequestError
/// print(requestError.attempts)                                   // 3
/// requestError.validationError as? UnacceptableStatusCode       // the last attempt's error
/// ```
public struct RetriedError: Error, CustomStringConvertible {
    /// How many attempts were made, the first included.
    public let attempts: Int
    /// The error of the last attempt.
    public let lastError: Error

    /// Creates the error.
    public init(attempts: Int, lastError: Error) {
        self.attempts = attempts
        self.lastError = lastError
    }

    public var description: String { "after \(attempts) attempts: \(Redaction.describe(lastError))" }
}
