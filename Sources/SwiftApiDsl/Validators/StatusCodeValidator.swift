import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ResponseValidator {
    /// The ``id`` of the status-code validators: a request's range replaces its client's.
    public static let httpStatusCodeRangeId = "httpStatusCodeRange"

    /// Rejects a status code outside `range` (by default, anything but 2xx).
    ///
    /// It **replaces** an earlier status-code range (the client's, for one request) instead of
    /// adding to it, so a request can accept more than its client does:
    /// ```swift
    /// let exists = try await client.get("users/x").httpStatusCodeRange(200..<300).perform()
    /// let probe = try await client.head("users/x").httpStatusCodeRange(200...404).perform()
    /// ```
    public static func httpStatusCodeRange(_ range: Range<Int> = 200..<300) -> ResponseValidator {
        var validator = ResponseValidator(id: httpStatusCodeRangeId) { response in
            let status = response.statusCode
            guard range.contains(status) else { throw ApiClientError.unacceptableStatusCode(status, acceptable: range) }
        }
        validator.acceptedStatuses = range
        return validator
    }

    /// Rejects a status code outside `range`, such as `200...299`; it replaces an earlier range.
    public static func httpStatusCodeRange(_ range: ClosedRange<Int>) -> ResponseValidator {
        // `Range(range)` would overflow for an upper bound of `Int.max`.
        httpStatusCodeRange(range.lowerBound..<(range.upperBound == .max ? .max : range.upperBound + 1))
    }
}

extension ResponseValidatable {
    /// Rejects a status code outside `range` (by default, anything but 2xx); it replaces an
    /// earlier range, such as the client's for one request.
    public func httpStatusCodeRange(_ range: Range<Int> = 200..<300) -> Self {
        validator(.httpStatusCodeRange(range))
    }

    /// Rejects a status code outside `range`, such as `200...299`; it replaces an earlier range.
    public func httpStatusCodeRange(_ range: ClosedRange<Int>) -> Self {
        validator(.httpStatusCodeRange(range))
    }
}
