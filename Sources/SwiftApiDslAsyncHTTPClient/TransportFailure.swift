#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOSSL
import SwiftApiDsl

/// Turns what AsyncHTTPClient throws into the errors the pipeline expects of a transport,
/// so that callers see the same error whichever engine sent the request.
enum TransportFailure {
    /// The error to throw for `error`, raised while sending `request`.
    ///
    /// Cancellation becomes `CancellationError` (the pipeline reports the reason of its own
    /// aborts, timeouts included, whatever the engine throws). Connection failures become the
    /// `URLError` URLSession gives for them, with the original error under
    /// `NSUnderlyingErrorKey`; so do malformed answers (`.badServerResponse`), answers cut
    /// short (`.networkConnectionLost`), corrupt compressed bodies (`.cannotDecodeContentData`) and
    /// refused certificates (`.secureConnectionFailed`, `.serverCertificateUntrusted`),
    /// as the Errors article of SwiftApiDsl lists. Anything else is thrown unchanged.
    static func map(_ error: any Error, for request: TransportRequest) -> any Error {
        if error is CancellationError { return CancellationError() }
        if let ioError = error as? IOError {
            switch ioError.errnoCode {
            case ECONNREFUSED: return urlError(.cannotConnectToHost, request, underlying: ioError)
            case ECONNRESET, EPIPE: return urlError(.networkConnectionLost, request, underlying: ioError)
            default: return ioError
            }
        }
        if let channelError = error as? ChannelError {
            switch channelError {
            case .connectTimeout: return urlError(.timedOut, request, underlying: channelError)
            case .ioOnClosedChannel, .eof, .outputClosed, .inputClosed, .alreadyClosed:
                return urlError(.networkConnectionLost, request, underlying: channelError)
            default: return channelError
            }
        }
        // A failed handshake (an unknown authority, an expired certificate among the reasons);
        // a certificate for another host fails after it, as NIOSSL's extra error.
        if error is NIOSSLError {
            return urlError(.secureConnectionFailed, request, underlying: error)
        }
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return urlError(.serverCertificateUntrusted, request, underlying: error)
        }
        if let parserError = error as? HTTPParserError {
            // The answer ended before the length it announced: the connection was lost under it.
            // Anything else the parser refuses (status line, chunk sizes, conflicting lengths,
            // oversized headers) is a response that is not valid HTTP.
            let code: URLError.Code = parserError == .invalidEOFState ? .networkConnectionLost : .badServerResponse
            return urlError(code, request, underlying: parserError)
        }
        // NIOHTTPDecompression.DecompressionError lives in swift-nio-extras, which this package
        // does not depend on directly: it is recognised by its type's name.
        if String(reflecting: type(of: error)).hasSuffix("DecompressionError") {
            return urlError(.cannotDecodeContentData, request, underlying: error)
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

    private static func urlError(_ code: URLError.Code, _ request: TransportRequest, underlying: (any Error)?) -> URLError {
        var userInfo: [String: Any] = [:]
        if let url = request.url { userInfo[NSURLErrorFailingURLErrorKey] = url }
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying }
        return URLError(code, userInfo: userInfo)
    }
}
#endif
