import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Puts URLSession's failures into the library's one vocabulary of `URLError` codes
/// (the Errors article, "What each failure looks like"), the one the AsyncHTTPClient transport
/// maps its engine's errors onto too.
///
/// On Linux, swift-corelibs-foundation reports most of libcurl's errors as `URLError(.unknown)`
/// (-1) with libcurl's message as the only clue: a body cut short, a connection closed while the
/// request was sent, a broken chunked encoding, a corrupt gzip body, a certificate refused.
/// Those are recognised by that message; what is not recognised stays as it is. The original
/// error is kept under `NSUnderlyingErrorKey`.
enum URLSessionFailure {
    /// The error to report for `error`, raised by the task that sent `request`.
    static func map(_ error: any Error, for request: URLRequest) -> any Error {
        guard let urlError = error as? URLError, let code = code(for: urlError) else { return error }
        return failure(code, for: request, underlying: urlError)
    }

    /// A `URLError` of `code` naming `request`'s URL, with `underlying` kept.
    static func failure(_ code: URLError.Code, for request: URLRequest, underlying: (any Error)?) -> URLError {
        var userInfo: [String: Any] = [:]
        if let url = request.url { userInfo[NSURLErrorFailingURLErrorKey] = url }
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying }
        return URLError(code, userInfo: userInfo)
    }

    /// The code `error` stands for, when it differs from its own.
    private static func code(for error: URLError) -> URLError.Code? {
        #if canImport(FoundationNetworking)
        let message = (error.userInfo[NSLocalizedDescriptionKey] as? String ?? "").lowercased()
        switch error.code {
        case .unknown:
            // A body cut short; a connection the server reset or closed while the request was
            // still being sent ("Send failure: Broken pipe") or its answer read.
            if message.contains("transfer closed") || message.contains("broken pipe") || message.contains("connection reset") {
                return .networkConnectionLost
            }
            if message.contains("chunked") { return .badServerResponse }
            if message.contains("unencoding") { return .cannotDecodeContentData }
            // libcurl's answer to a header line larger than it accepts.
            if message.contains("out of memory") { return .badServerResponse }
            // A certificate libcurl refused (unknown authority, expired, another host's):
            // what `RequestError.isTrustFailure` recognises.
            if message.contains("ssl certificate problem") || message.contains("ssl: no alternative certificate subject name") {
                return message.contains("expired") ? .serverCertificateHasBadDate : .serverCertificateUntrusted
            }
            return nil
        case .badServerResponse where message.contains("empty reply"):
            // The connection closed before a byte of the answer: what Apple's URLSession and
            // AsyncHTTPClient report as a lost connection.
            return .networkConnectionLost
        case .unsupportedURL where message.contains("http/0.9"):
            // A status line that is not HTTP; libcurl takes it for HTTP/0.9 and refuses it.
            return .badServerResponse
        default:
            return nil
        }
        #else
        return nil
        #endif
    }
}
