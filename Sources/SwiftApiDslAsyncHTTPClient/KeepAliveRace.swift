#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import SwiftApiDsl

/// The keep-alive race: a server closes a connection it kept alive just as the client writes
/// the next request on it. The request is lost with the connection, before any byte of an
/// answer, through no fault of its own, and a client should send it again on a new connection.
///
/// libcurl (URLSession on Linux) sends such a request again on its own, whatever its method
/// (measured: Docs/LinuxNotes.md, "The keep-alive race"); AsyncHTTPClient does not, so this
/// transport does, once, and only when sending twice is
/// harmless: an idempotent method (`GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`; RFC 9110 §9.2.2)
/// and a body that can be read again (every body a `TransportRequest` holds can: `Data` in
/// memory, a file, a multipart form). The resend happens inside the one exchange the pipeline
/// asked for: observers and the `RetryPolicy` see one attempt, and upload progress does not
/// count the body twice.
enum KeepAliveRace {
    /// Whether `request` may be sent a second time after losing its connection before any
    /// answer: its method is one the default `RetryPolicy` retries, the idempotent ones.
    static func allowsResend(of request: TransportRequest) -> Bool {
        // A streamed body that can be sent once is never sent again: the first error stands.
        if case .stream(let streamed) = request.body, !streamed.repeatable { return false }
        return RetryPolicy.default.retryableMethods.contains(request.method)
    }

    /// Whether `error`, raised before any byte of a response head arrived, says that the
    /// connection closed under the request: the race's signature. A connection that closed in
    /// the middle of a head is not (AsyncHTTPClient's parser reports that as `invalidEOFState`).
    static func isLossBeforeAnswer(_ error: any Error) -> Bool {
        if let clientError = error as? HTTPClientError { return clientError == .remoteConnectionClosed }
        if let ioError = error as? IOError { return ioError.errnoCode == ECONNRESET || ioError.errnoCode == EPIPE }
        if let channelError = error as? ChannelError {
            switch channelError {
            case .ioOnClosedChannel, .eof, .outputClosed, .inputClosed, .alreadyClosed: return true
            default: return false
            }
        }
        return false
    }
}
#endif
