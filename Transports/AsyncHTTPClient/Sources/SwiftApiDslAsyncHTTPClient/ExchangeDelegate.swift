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
/// caller, the body to ``ResponseChunks`` and the bytes sent to the pipeline's ``ExchangeControl``.
///
/// Using AsyncHTTPClient's delegate API rather than its `async` one costs no task per exchange,
/// and the `HTTPClient.Task` it returns can be cancelled from the pipeline's idle ticker.
final class ExchangeDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void
    private typealias HeadContinuation = CheckedContinuation<TransportResponse, any Error>

    private enum Head {
        case awaited
        case waiting(HeadContinuation)
        case arrived(Result<TransportResponse, any Error>)
        case delivered
    }

    private let request: URLRequest
    private let control: ExchangeControl
    private let chunks = ResponseChunks()
    private let head = NIOLockedValueBox(Head.awaited)

    init(request: URLRequest, control: ExchangeControl) {
        self.request = request
        self.control = control
    }

    /// Waits for the response head, which may have arrived already.
    func response() async throws -> TransportResponse {
        try await withCheckedThrowingContinuation { continuation in
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

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        control.didSend(part.readableBytes)
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        var fields = HeaderFields()
        for (name, value) in head.headers { fields.append(value, for: name) }
        deliver(.success(TransportResponse(
            statusCode: Int(head.status.code),
            headerFields: fields,
            httpVersion: "HTTP/\(head.version.major).\(head.version.minor)",
            body: ResponseBody(ResponseChunks.Sequence(chunks: chunks))
        )))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        chunks.push(buffer, on: task.eventLoop)
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        fail(error)
    }

    /// Ends the exchange with `error`, whether or not the head has arrived. Called twice at
    /// most (by AsyncHTTPClient and by the task's result); only the first call counts.
    func fail(_ error: any Error) {
        let failure = TransportFailure.map(error, for: request)
        deliver(.failure(failure))
        chunks.finish(.failure(failure))
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        chunks.finish(.success(()))
    }
}
