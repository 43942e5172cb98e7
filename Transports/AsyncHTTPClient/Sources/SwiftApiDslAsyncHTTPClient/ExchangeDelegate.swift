import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import SwiftApiDsl

/// Receives one exchange from AsyncHTTPClient's event loop: it hands the head to the waiting
/// caller, the body to a ``ResponseChunkQueue`` and the bytes sent to the pipeline's ``ExchangeControl``.
///
/// Using AsyncHTTPClient's delegate API rather than its `async` one costs no task per exchange,
/// and the `HTTPClient.Task` it returns can be cancelled from the pipeline's idle ticker.
final class ExchangeDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void
    private typealias HeadContinuation = UnsafeContinuation<TransportResponse, any Error>

    private enum Head {
        case awaited
        case waiting(HeadContinuation)
        case arrived(Result<TransportResponse, any Error>)
        case delivered
    }

    private let request: TransportRequest
    private let control: ExchangeControl
    /// The body, with back-pressure: beyond about a megabyte queued, AsyncHTTPClient stops
    /// reading the socket until the reader catches up, whatever the size of the body.
    private let chunks = ResponseChunkQueue(bufferLimit: 1 << 20)
    private let head = NIOLockedValueBox(Head.awaited)
    /// The head parsed but not yet handed over (see ``didReceiveHead(task:_:)``).
    private let parsedHead = NIOLockedValueBox<TransportResponse?>(nil)
    /// The bytes of the request body sent by this exchange.
    private let sent = NIOLockedValueBox<Int64>(0)
    /// Bytes an earlier sending of the same request already reported (see ``KeepAliveRace``):
    /// reported again only beyond that, so that upload progress counts the body once.
    private let reportedBefore: Int64
    /// Whether a response head arrived.
    private let headArrived = NIOLockedValueBox(false)
    /// Whether the exchange failed because the connection closed before any byte of an answer.
    private let lostBeforeAnswer = NIOLockedValueBox(false)

    /// A delegate for one sending of `request`; `reportedBefore` bytes of its body were
    /// reported by an earlier sending of the same request.
    init(request: TransportRequest, control: ExchangeControl, reportedBefore: Int64 = 0) {
        self.request = request
        self.control = control
        self.reportedBefore = reportedBefore
    }

    /// The bytes of the request body reported to the pipeline so far, by this sending or an earlier one.
    var bytesReported: Int64 { max(reportedBefore, sent.withLockedValue { $0 }) }

    /// Whether the connection closed under the request before any byte of an answer arrived.
    var wasLostBeforeAnswer: Bool { lostBeforeAnswer.withLockedValue { $0 } }

    /// Waits for the response head, which may have arrived already.
    func response() async throws -> TransportResponse {
        try await withUnsafeThrowingContinuation { continuation in
            let arrived: Result<TransportResponse, any Error>? = head.withLockedValue { head in
                guard case .arrived(let result) = head else {
                    head = .waiting(continuation)
                    return nil
                }
                head = .delivered
                return result
            }
            if let arrived { continuation.resume(with: arrived) }
        }
    }

    private func deliver(_ result: Result<TransportResponse, any Error>) {
        let waiting: HeadContinuation? = head.withLockedValue { head in
            switch head {
            case .awaited:
                head = .arrived(result)
                return nil
            case .waiting(let continuation):
                head = .delivered
                return continuation
            case .arrived, .delivered:
                return nil
            }
        }
        waiting?.resume(with: result)
    }

    /// Hands over the parsed head, if it is still waiting to be.
    private func deliverParsedHead() {
        guard let response = parsedHead.withLockedValue({ parsed in
            defer { parsed = nil }
            return parsed
        }) else { return }
        deliver(.success(response))
    }

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        let total = sent.withLockedValue { sent in
            sent += Int64(part.readableBytes)
            return sent
        }
        let new = min(Int64(part.readableBytes), total - reportedBefore)
        if new > 0 { control.didSend(Int(new)) }
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        headArrived.withLockedValue { $0 = true }
        var fields = HeaderFields()
        for (name, value) in head.headers { fields.append(value, for: name) }
        let response = TransportResponse(
            statusCode: Int(head.status.code),
            headerFields: fields,
            httpVersion: head.version == .http1_1 ? "HTTP/1.1" : "HTTP/\(head.version.major).\(head.version.minor)",
            body: chunks.body
        )
        // Handed over once the event loop has parsed the rest of what it read: a small body
        // usually came in the same read, and is then queued before the caller wakes up, which
        // saves the caller a second wake-up (a thread hop) to wait for it.
        parsedHead.withLockedValue { $0 = response }
        task.eventLoop.execute { self.deliverParsedHead() }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard !chunks.push(Data(buffer: buffer)) else { return task.eventLoop.makeSucceededVoidFuture() }
        let resumed = task.eventLoop.makePromise(of: Void.self)
        chunks.whenDrained { resumed.succeed() }
        return resumed.futureResult
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        fail(error)
    }

    /// Ends the exchange with `error`, whether or not the head has arrived. Called twice at
    /// most (by AsyncHTTPClient and by the task's result); only the first call counts.
    func fail(_ error: any Error) {
        let failure = TransportFailure.map(error, for: request)
        if KeepAliveRace.isLossBeforeAnswer(error), !headArrived.withLockedValue({ $0 }) {
            lostBeforeAnswer.withLockedValue { $0 = true }
        }
        // A head that arrived goes first: the failure is then the body's.
        deliverParsedHead()
        deliver(.failure(failure))
        chunks.finish(throwing: failure)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        chunks.finish()
    }
}
