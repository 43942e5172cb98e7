import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The failures that ``RequestError/fatal(_:)`` carries: ones a working app should not meet.
public enum FatalError: Error {
    /// The body did not decode into `expectedType`. The response is kept.
    case decoding(expectedType: String, request: URLRequest, response: Response<Data>, error: Error)
    /// The transport answered with something that is not an HTTP response.
    case notHTTPResponse(URLRequest, URLResponse?)
    /// A download could not be written to `destination`; the destination was left as it was.
    case download(URLRequest, destination: URL, error: Error)
    /// An error that did not come from a request, wrapped by ``Swift/Error/asRequestError``.
    case unexpected(Error)
}

// Read through `RequestError`'s `request` and `underlyingError`, the one place callers look.
extension FatalError {
    /// The request concerned, if any.
    var request: URLRequest? {
        switch self {
        case .decoding(_, let request, _, _), .notHTTPResponse(let request, _), .download(let request, _, _):
            request
        case .unexpected:
            nil
        }
    }

    /// The error behind this one, if any.
    var underlyingError: Error? {
        switch self {
        case .decoding(_, _, _, let error), .download(_, _, let error), .unexpected(let error): error
        case .notHTTPResponse: nil
        }
    }
}
