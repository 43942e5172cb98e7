import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Thrown by ``ResponseValidator/httpStatusCodeRange(_:)`` for a status outside the range.
public struct UnacceptableStatusCode: Error, Sendable, Equatable, CustomStringConvertible {
    /// The status received.
    public let statusCode: Int
    /// The statuses accepted.
    public let acceptable: Range<Int>

    /// Creates the error for `statusCode` outside `acceptable`.
    public init(statusCode: Int, acceptable: Range<Int>) {
        self.statusCode = statusCode
        self.acceptable = acceptable
    }

    public var description: String {
        "status code \(statusCode) is outside \(acceptable.lowerBound)..<\(acceptable.upperBound)"
    }
}

extension ResponseValidator {
    /// Rejects a status code outside `range` (by default, anything but 2xx).
    public static func httpStatusCodeRange(_ range: Range<Int> = 200..<300) -> ResponseValidator {
        .init { response in
            let status = response.statusCode
            guard range.contains(status) else { throw UnacceptableStatusCode(statusCode: status, acceptable: range) }
        }
    }
}

extension ResponseValidatable {
    /// Rejects a status code outside `range` (by default, anything but 2xx).
    public func httpStatusCodeRange(_ range: Range<Int> = 200..<300) -> Self {
        validator(.httpStatusCodeRange(range))
    }
}
