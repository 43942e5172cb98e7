import Foundation

/// A response body was larger than the request's ``RequestModifier/maxResponseSize(_:)``.
///
/// It reaches the caller inside ``RequestError/transport(_:_:)``. Reading stopped at the limit
/// and the connection was closed: nothing more was read, nothing was kept.
/// ```swift
/// catch let error as RequestError {
///     if let tooLarge = error.underlyingError as? ResponseTooLargeError { print(tooLarge.limit) }
/// }
/// ```
public struct ResponseTooLargeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The limit, in bytes.
    public let limit: Int
    /// The size the server announced in `Content-Length`, when it announced one above the
    /// limit; then not a byte of the body was read. `nil` when the body grew past the limit.
    public let declaredLength: Int64?

    /// The error for `limit`, announced as `declaredLength` or not; a mock can return it to
    /// stand for an oversized answer.
    public init(limit: Int, declaredLength: Int64? = nil) {
        self.limit = limit
        self.declaredLength = declaredLength
    }

    public var description: String {
        if let declaredLength { return "response body of \(declaredLength) bytes exceeds the limit of \(limit) bytes" }
        return "response body exceeds the limit of \(limit) bytes"
    }
}
