import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The same GET + decode through the engine APIs a transport can build on (`--only floor`),
/// against the raw call of the round trips, with nothing of the library in them.
///
/// Over AsyncHTTPClient, the pipeline ends an exchange on its idle timeout from its ticker, not
/// from the caller's task. The `async` API can only be cancelled through the task that awaits
/// it, so an exchange on it needs a task of its own per request; the delegate API returns an
/// `HTTPClient.Task` that anyone can cancel.
///
/// Over URLSession, `data(for:)` gathers the body inside swift-corelibs-foundation and calls
/// back once. A transport that hands the body over as it arrives (`stream()`, downloads) needs a
/// session delegate, which corelibs calls for the head, each chunk and the end.
enum EngineFloor {
    /// The sides after the raw call on `engine`: (name, operation).
    static func sides(engine: String, server: URL, client: HTTPClient) -> [(String, @Sendable () async throws -> Void)] {
        engine == "URLSession" ? urlSessionSides(server: server) : asyncHTTPClientSides(server: server, client: client)
    }

    private static func asyncHTTPClientSides(server: URL, client: HTTPClient) -> [(String, @Sendable () async throws -> Void)] {
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

    private static func urlSessionSides(server: URL) -> [(String, @Sendable () async throws -> Void)] {
        let url = server.appendingPathComponent("user.json")
        let decoder = JSONDecoder()
        // Both sessions are made as the library's transport makes its own for `URLSession.shared`
        // (the DSL side's): its configuration without the URLCache, and on Linux the delegate's
        // callbacks run where corelibs raises them.
        let configuration = URLSession.shared.configuration.copy() as! URLSessionConfiguration
        configuration.urlCache = nil
        let plain = URLSession(configuration: configuration)
        let collector = DataCollector()
        #if canImport(FoundationNetworking)
        let withDelegate = URLSession(configuration: configuration, delegate: collector, delegateQueue: InlineQueue())
        #else
        let withDelegate = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        #endif
        let ownSession: @Sendable () async throws -> Void = {
            let (data, response) = try await plain.data(for: URLRequest(url: url))
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw RoundTrip.UnexpectedAnswer(description: "\(response)") }
            _ = try decoder.decode(UserRecord.self, from: data)
        }
        let viaDelegate: @Sendable () async throws -> Void = {
            let data = try await collector.load(URLRequest(url: url), on: withDelegate)
            _ = try decoder.decode(UserRecord.self, from: data)
        }
        return [("`data(for:)` on a session of its own, no URLCache", ownSession),
                ("a session delegate: head, chunks and end called back", viaDelegate)]
    }

    #if canImport(FoundationNetworking)
    /// Runs each delegate callback where corelibs raises it, as the transport's queue does.
    final class InlineQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @escaping @Sendable () -> Void) { block() }
    }
    #endif

    /// The smallest session delegate: gathers each task's chunks and answers its caller at the end.
    final class DataCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private struct Load {
            var continuation: CheckedContinuation<Data, any Error>
            var status = 0
            var body = Data()
        }
        private let loads = NIOLockedValueBox<[Int: Load]>([:])

        func load(_ request: URLRequest, on session: URLSession) async throws -> Data {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request)
                loads.withLockedValue { $0[task.taskIdentifier] = Load(continuation: continuation) }
                task.resume()
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            loads.withLockedValue { $0[dataTask.taskIdentifier]?.status = status }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            loads.withLockedValue { $0[dataTask.taskIdentifier]?.body.append(data) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let load = loads.withLockedValue({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            if let error { return load.continuation.resume(throwing: error) }
            guard load.status == 200 else { return load.continuation.resume(throwing: RoundTrip.UnexpectedAnswer(description: "\(load.status)")) }
            load.continuation.resume(returning: load.body)
        }
    }
}
