import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore

/// Turns what AsyncHTTPClient throws into the errors the pipeline expects of a transport,
/// so that callers see the same error whichever engine sent the request.
enum TransportFailure {
    /// The error to throw for `error`, raised while sending `request`.
    ///
    /// Cancellation becomes `CancellationError` (the pipeline reports the reason of its own
    /// aborts, timeouts included, whatever the engine throws). Connection failures become the
    /// `URLError` URLSession gives for them, with the original error under
    /// `NSUnderlyingErrorKey`. Anything else is thrown unchanged.
    static func map(_ error: any Error, for request: URLRequest) -> any Error {
        if error is CancellationError { return CancellationError() }
        if let ioError = error as? IOError {
            switch ioError.errnoCode {
            case ECONNREFUSED: return urlError(.cannotConnectToHost, request, underlying: ioError)
            case ECONNRESET, EPIPE: return urlError(.networkConnectionLost, request, underlying: ioError)
            default: return ioError
            }
        }
        guard let clientError = error as? HTTPClientError else { return error }
        if clientError == .cancelled { return CancellationError() }
        switch clientError {
        case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded:
            return urlError(.timedOut, request, underlying: clientError)
        case .remoteConnectionClosed:
            return urlError(.networkConnectionLost, request, underlying: clientError)
        default:
            return clientError
        }
    }

    private static func urlError(_ code: URLError.Code, _ request: URLRequest, underlying: (any Error)?) -> URLError {
        var userInfo: [String: Any] = [:]
        if let url = request.url { userInfo[NSURLErrorFailingURLErrorKey] = url }
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying }
        return URLError(code, userInfo: userInfo)
    }
}
