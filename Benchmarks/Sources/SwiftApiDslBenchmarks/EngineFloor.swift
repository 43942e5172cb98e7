import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The same GET + decode through the AsyncHTTPClient APIs an exchange that the pipeline can
/// abort from outside could use (`--only floor`), against the raw `async` call of the round trips.
///
/// The pipeline ends an exchange on its idle timeout from its ticker, not from the caller's task.
/// AsyncHTTPClient's `async` API can only be cancelled through the task that awaits it, so an
/// exchange on it needs a task of its own per request; its delegate API returns an
/// `HTTPClient.Task` that anyone can cancel. These are the two floors an abortable exchange
/// stands on, measured with nothing of the library in them.
enum EngineFloor {
    /// The sides after the raw call: (name, operation).
    static func sides(server: URL, client: HTTPClient) -> [(String, @Sendable () async throws -> Void)] {
        let url = server.appendingPathComponent("user.json").absoluteString
        let decoder = JSONDecoder()
        let viaDelegate: @Sendable () async throws -> Void = {
            let request = try HTTPClient.Request(url: url)
            let collector = BodyCollector()
            let buffer = try await client.execute(request: request, delegate: collector, deadline: nil).futureResult.get()
            _ = try decoder.decode(UserRecord.self, from: buffer)
        }
        let inATask: @Sendable () async throws -> Void = {
            let task = Task {
                let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
                guard response.status == .ok else { throw RoundTrip.UnexpectedAnswer(description: "\(response.status)") }
                return try await response.body.collect(upTo: 1 << 20)
            }
            let body = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            _ = try decoder.decode(UserRecord.self, from: body)
        }
        return [("delegate API, a cancellable `HTTPClient.Task`", viaDelegate),
                ("`async` API in a task of its own per request", inATask)]
    }

    /// Gathers a 200's body on the event loop, as the smallest delegate does.
    final class BodyCollector: HTTPClientResponseDelegate, Sendable {
        typealias Response = ByteBuffer
        private let state = NIOLockedValueBox<(status: HTTPResponseStatus?, body: ByteBuffer?)>((nil, nil))

        func didReceiveHead(task: HTTPClient.Task<ByteBuffer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            state.withLockedValue { $0.status = head.status }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<ByteBuffer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            state.withLockedValue { state in
                var buffer = buffer
                if state.body == nil { state.body = buffer } else { state.body!.writeBuffer(&buffer) }
            }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<ByteBuffer>) throws -> ByteBuffer {
            let (status, body) = state.withLockedValue { $0 }
            guard status == .ok else { throw RoundTrip.UnexpectedAnswer(description: "\(status.map { "\($0)" } ?? "no head")") }
            return body ?? ByteBuffer()
        }
    }
}
