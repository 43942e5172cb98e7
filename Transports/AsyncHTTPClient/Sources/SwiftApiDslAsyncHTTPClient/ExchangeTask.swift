import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import SwiftApiDsl

/// One sending of a request through AsyncHTTPClient's `async` API, in a task of its own: it
/// hands the head to the waiting caller, then moves the body into a ``ResponseChunkQueue`` and
/// reports the bytes sent to the pipeline's ``ExchangeControl``.
///
/// The task is what the pipeline cancels: AsyncHTTPClient's `async` API stops an exchange only
/// when the task that awaits it is cancelled, and the idle timeout fires from the pipeline's
/// ticker, not from the caller. A task per exchange still costs less than the delegate API,
/// which hands every callback to the delegate's event loop when the connection is on another
/// (Benchmarks/NOTES.md, issue 25).
final class ExchangeTask: Sendable {
    private typealias HeadContinuation = UnsafeContinuation<TransportResponse, any Error>

    private let request: TransportRequest
    private let control: ExchangeControl
    /// The body, with back-pressure: beyond about a megabyte queued, the task stops asking
    /// AsyncHTTPClient for more, which then stops reading the socket.
    private let chunks = ResponseChunkQueue(bufferLimit: 1 << 20)
    /// Bytes an earlier sending of the same request already reported (see ``KeepAliveRace``):
    /// reported again only beyond that, so that upload progress counts the body once.
    private let reportedBefore: Int64

    private struct State {
        /// The bytes of the request body handed to AsyncHTTPClient by this sending.
        var sent: Int64 = 0
        /// Whether the exchange failed because the connection closed before any byte of an answer.
        var lostBeforeAnswer = false
    }

    private let state = NIOLockedValueBox(State())

    /// A sending of `request`; `reportedBefore` bytes of its body were reported by an earlier
    /// sending of the same request.
    init(request: TransportRequest, control: ExchangeControl, reportedBefore: Int64 = 0) {
        self.request = request
        self.control = control
        self.reportedBefore = reportedBefore
    }

    /// The bytes of the request body reported to the pipeline so far, by this sending or an earlier one.
    var bytesReported: Int64 { max(reportedBefore, state.withLockedValue { $0.sent }) }

    /// Whether the connection closed under the request before any byte of an answer arrived.
    var wasLostBeforeAnswer: Bool { state.withLockedValue { $0.lostBeforeAnswer } }

    /// Counts `count` more bytes handed over, and reports those beyond ``reportedBefore``.
    func didSend(_ count: Int) {
        let total = state.withLockedValue { state in
            state.sent += Int64(count)
            return state.sent
        }
        let new = min(Int64(count), total - reportedBefore)
        if new > 0 { control.didSend(Int(new)) }
    }

    /// Sends `outgoing` through `client` and waits for the response head.
    func run(_ outgoing: HTTPClientRequest, on client: HTTPClient) async throws -> TransportResponse {
        // The task resumes the caller after letting go of the queue's lock; taking it again
        // orders the head, and what the task queued with it, before what the caller does next.
        defer { state.withLockedValue { _ in } }
        return try await withUnsafeThrowingContinuation { (head: HeadContinuation) in
            let task = Task { await self.exchange(outgoing, on: client, head: head) }
            // A pipeline that aborts ends the body too: a task waiting for the reader to drain
            // the queue is let go, and its next read from AsyncHTTPClient sees the cancellation.
            control.onAbort { [chunks] _ in
                task.cancel()
                chunks.finish(throwing: CancellationError())
            }
        }
    }

    private func exchange(_ outgoing: HTTPClientRequest, on client: HTTPClient, head: HeadContinuation) async {
        var head: HeadContinuation? = head
        do {
            // No deadline: AsyncHTTPClient's would end the exchange at a fixed time, not after
            // idle time; the pipeline enforces the idle timeout by cancelling this task.
            let response = try await client.execute(outgoing, deadline: .distantFuture)
            // A body sent whole is reported once it is through: the answer came after it.
            if let whole = HTTPClientRequest.wholeBodySize(of: request) { didSend(whole) }
            var fields = HeaderFields()
            for (name, value) in response.headers { fields.append(value, for: name) }
            let version = response.version
            head?.resume(returning: TransportResponse(
                statusCode: Int(response.status.code),
                headerFields: fields,
                httpVersion: version == .http1_1 ? "HTTP/1.1" : "HTTP/\(version.major).\(version.minor)",
                body: chunks.body
            ))
            head = nil
            for try await buffer in response.body {
                if !chunks.push(Data(buffer: buffer)) {
                    await withUnsafeContinuation { (drained: UnsafeContinuation<Void, Never>) in
                        chunks.whenDrained { drained.resume() }
                    }
                }
            }
            chunks.finish()
        } catch {
            let failure = TransportFailure.map(error, for: request)
            if head != nil, KeepAliveRace.isLossBeforeAnswer(error) {
                state.withLockedValue { $0.lostBeforeAnswer = true }
            }
            head?.resume(throwing: failure)
            chunks.finish(throwing: failure)
        }
    }
}
