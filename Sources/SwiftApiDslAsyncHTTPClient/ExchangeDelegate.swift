#if AsyncHTTPClient
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
/// caller, the body to a `ResponseChunkQueue` and the bytes sent to the pipeline's `ExchangeControl`.
///
/// A small answer to a call that reads it into memory (a `Content-Length` of at most
/// ``heldBodyLimit``, a request that does not take its body as it arrives) reaches the caller
/// whole: its head is held and its parts gathered until the body has arrived, then both are handed
/// over as one response whose body is given whole, so the caller wakes once and reads nothing more.
/// Meanwhile the head and each part are reported to the control, so a body that stalls is timed
/// out from its last bytes, and the time to first byte stays the head's. A body that outgrows the
/// bound as it is decompressed, or an exchange that fails before its end, hands over what was
/// gathered through the queue, followed by the rest or the failure. A larger or unannounced body,
/// a stream's or a download's, gets its head at once.
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
    /// Told where the exchange ended, before the caller hears of it, so its next call runs there.
    private let loops: EventLoopAffinity
    /// The loop of this exchange, picked once, for the delegate and a streamed body's futures alike.
    let eventLoop: any EventLoop
    /// The body, with back-pressure: beyond about a megabyte queued, AsyncHTTPClient stops
    /// reading the socket until the reader catches up, whatever the size of the body.
    private let chunks = ResponseChunkQueue(bufferLimit: 1 << 20)
    /// Bytes an earlier sending of the same request already reported (see ``KeepAliveRace``):
    /// reported again only beyond that, so that upload progress counts the body once.
    private let reportedBefore: Int64

    /// Everything that changes, under one lock: one allocation per exchange.
    private struct State {
        var head = Head.awaited
        /// The head parsed but not yet handed over (see ``didReceiveHead(task:_:)``).
        var parsedHead: TransportResponse?
        /// Whether the head waits for the whole body, whose parts gather in `heldBody`.
        var holdsHead = false
        var heldBody: ByteBuffer?
        /// The bytes of the request body sent by this exchange.
        var sent: Int64 = 0
        /// Whether a response head arrived.
        var headArrived = false
        /// Whether the exchange failed because the connection closed before any byte of an answer.
        var lostBeforeAnswer = false
        /// Whether `loops` was told that the exchange ended.
        var endReported = false
    }

    private let state = NIOLockedValueBox(State())

    /// The largest announced body whose head waits for it (see above).
    static let heldBodyLimit = 64 * 1024

    /// A delegate for one sending of `request`; `reportedBefore` bytes of its body were
    /// reported by an earlier sending of the same request.
    init(request: TransportRequest, control: ExchangeControl, loops: EventLoopAffinity, reportedBefore: Int64 = 0) {
        self.request = request
        self.control = control
        self.loops = loops
        eventLoop = loops.next()
        self.reportedBefore = reportedBefore
    }

    /// The bytes of the request body reported to the pipeline so far, by this sending or an earlier one.
    var bytesReported: Int64 { max(reportedBefore, state.withLockedValue { $0.sent }) }

    /// Whether the connection closed under the request before any byte of an answer arrived.
    var wasLostBeforeAnswer: Bool { state.withLockedValue { $0.lostBeforeAnswer } }

    /// Waits for the response head, which may have arrived already.
    func response() async throws -> TransportResponse {
        // The event loop resumes the caller after letting the lock go. When that happens before
        // the caller reaches its `await`, the Swift runtime tells ThreadSanitizer nothing; taking
        // the lock again orders the head before what the caller does with it.
        defer { state.withLockedValue { _ in } }
        return try await withUnsafeThrowingContinuation { continuation in
            let arrived: Result<TransportResponse, any Error>? = state.withLockedValue { state in
                guard case .arrived(let result) = state.head else {
                    state.head = .waiting(continuation)
                    return nil
                }
                state.head = .delivered
                return result
            }
            if let arrived { continuation.resume(with: arrived) }
        }
    }

    private func deliver(_ result: Result<TransportResponse, any Error>) {
        let waiting: HeadContinuation? = state.withLockedValue { state in
            switch state.head {
            case .awaited:
                state.head = .arrived(result)
                return nil
            case .waiting(let continuation):
                state.head = .delivered
                return continuation
            case .arrived, .delivered:
                return nil
            }
        }
        waiting?.resume(with: result)
    }

    /// Hands over the parsed head, if it is still waiting to be. A held head gets its gathered
    /// body given whole when the exchange ended (`ended`), else queued before what follows.
    private func deliverParsedHead(ended: Bool = false) {
        guard let (parsed, held, holds) = state.withLockedValue({ state in
            defer { (state.parsedHead, state.heldBody) = (nil, nil) }
            return state.parsedHead.map { ($0, state.heldBody, state.holdsHead) }
        }) else { return }
        var response = parsed
        if ended && holds {
            response.body = ResponseBody(held.map { Data(buffer: $0) } ?? Data())
        } else if let held {
            _ = chunks.push(Data(buffer: held))
        }
        deliver(.success(response))
    }

    /// Tells `loops` that the exchange ended, once: finished, failed, or never sent.
    func reportEnd() {
        let first = state.withLockedValue { state in
            defer { state.endReported = true }
            return !state.endReported
        }
        if first { loops.ended(on: eventLoop) }
    }

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        let total = state.withLockedValue { state in
            state.sent += Int64(part.readableBytes)
            return state.sent
        }
        let new = min(Int64(part.readableBytes), total - reportedBefore)
        if new > 0 { control.didSend(Int(new)) }
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        var fields = HeaderFields()
        for (name, value) in head.headers { fields.append(value, for: name) }
        let response = TransportResponse(
            statusCode: Int(head.status.code),
            headerFields: fields,
            httpVersion: head.version == .http1_1 ? "HTTP/1.1" : "HTTP/\(head.version.major).\(head.version.minor)",
            body: chunks.body
        )
        let holds = !control.takesBodyAsItArrives
            && head.headers.first(name: "Content-Length").flatMap(Int.init).map { $0 <= Self.heldBodyLimit } == true
        state.withLockedValue { state in
            state.headArrived = true
            state.parsedHead = response
            state.holdsHead = holds
        }
        if holds {
            // Handed over with the end of the body (`didFinishRequest`), or with a failure.
            control.didReceive(0)
        } else {
            // Handed over once the event loop has parsed the rest of what it read, so that what
            // came with the head is queued before the caller wakes.
            task.eventLoop.execute { self.deliverParsedHead() }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let gathered: Int? = state.withLockedValue { state in
            guard state.holdsHead, state.parsedHead != nil else { return nil }
            var part = buffer
            if state.heldBody == nil { state.heldBody = part } else { state.heldBody!.writeBuffer(&part) }
            return state.heldBody!.readableBytes
        }
        if let gathered {
            control.didReceive(buffer.readableBytes)
            // Decompressed, a held body can outgrow its bound: it goes to the queue from here on,
            // and the head to its reader.
            if gathered > Self.heldBodyLimit { deliverParsedHead() }
            return task.eventLoop.makeSucceededVoidFuture()
        }
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
        reportEnd()
        let failure = TransportFailure.map(error, for: request)
        if KeepAliveRace.isLossBeforeAnswer(error) {
            state.withLockedValue { state in
                if !state.headArrived { state.lostBeforeAnswer = true }
            }
        }
        // A head that arrived goes first: the failure is then the body's.
        deliverParsedHead()
        deliver(.failure(failure))
        chunks.finish(throwing: failure)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        reportEnd()
        chunks.finish()
        deliverParsedHead(ended: true)
    }
}
#endif
