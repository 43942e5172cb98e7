import Foundation

/// A download ended with another length than the server announced for the whole file (its
/// `Content-Length`, or the total of a `Content-Range` when the download was resumed).
///
/// It reaches the caller inside ``RequestError/transport(_:_:)``. A file that came out short is
/// resumed first, when it can be, like a body cut short; a file that came out longer cannot be
/// repaired and is dropped, a resumable download's partial file included.
/// ```swift
/// catch let error as RequestError {
///     if let length = error.underlyingError as? DownloadLengthError { print(length.receivedLength) }
/// }
/// ```
public struct DownloadLengthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The length the server announced for the whole file, in bytes.
    public let expectedLength: Int64
    /// The length of the file on disk, in bytes.
    public let receivedLength: Int64

    /// The error for a file of `receivedLength` bytes where `expectedLength` were announced.
    public init(expectedLength: Int64, receivedLength: Int64) {
        self.expectedLength = expectedLength
        self.receivedLength = receivedLength
    }

    public var description: String {
        "downloaded \(receivedLength) bytes where the server announced \(expectedLength)"
    }
}
