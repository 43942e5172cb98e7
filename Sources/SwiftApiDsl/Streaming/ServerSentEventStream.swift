import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestBuilder {
    /// The Server-Sent Events of this request's `text/event-stream`, reconnecting as a browser's
    /// `EventSource` does when the connection drops, at most `maxReconnects` times.
    ///
    /// ```swift
    /// for try await element in client.get("feed").serverSentEvents(maxReconnects: 10) {
    ///     switch element {
    ///     case .event(let event): show(event.data)
    ///     case .reconnected(let lastEventId): print("back, after event", lastEventId)
    ///     }
    /// }
    /// // or, for the events alone:
    /// for try await case .event(let event) in client.get("feed").serverSentEvents(maxReconnects: 10) { … }
    /// ```
    /// With `maxReconnects: 0` it reads one response's events, after checking its status and type.
    /// Each connection is a new call through the whole chain (modifiers, authentication and its
    /// renewal, retries, middlewares, observers), with `Accept: text/event-stream` unless the
    /// request sets its own `Accept`, and `Last-Event-ID` set to the last event ID received
    /// (none before any). See ``ServerSentEventStream`` for when it reconnects and how it ends.
    /// - Parameters:
    ///   - maxReconnects: how many times the stream may connect again over its life; `0` never.
    ///   - reconnectionTime: the wait before connecting again, in seconds, until the server sets
    ///     another with `retry:`.
    public func serverSentEvents(maxReconnects: Int, reconnectionTime: TimeInterval = 3) -> ServerSentEventStream {
        ServerSentEventStream(request: self, maxReconnects: max(maxReconnects, 0), reconnectionTime: reconnectionTime)
    }
}

/// The events of a `text/event-stream` response that reconnects when its connection drops, as
/// HTML's `EventSource` processing model says; made by
/// ``RequestBuilder/serverSentEvents(maxReconnects:reconnectionTime:)``.
///
/// - **Reconnects** when a connection ends (the server closed it, or it failed after the head or
///   before it, as a lost network does), after the reconnection time (the last `retry:` of the
///   stream, else the one given), sending `Last-Event-ID` when an event had an ID. A new
///   connection that answers `200` with an event stream yields ``Element/reconnected(lastEventId:)``
///   before its events. An `id:` or an event whose block the connection lost before its empty line
///   does not count.
/// - **Ends** without an error on a `204 No Content` (the server's way to say "stop"), and, once
///   `maxReconnects` reconnections were made, the way the last connection ended: normally if the
///   server closed it, with its error if it failed.
/// - **Fails**, never reconnecting, on another status than `200` or `204` (as
///   ``RequestError/validate(_:data:response:error:)`` with an ``ApiClientError`` (`.unacceptableStatusCode`) and the
///   error document), on a `200` that is not `text/event-stream` (with
///   `.unacceptableContentType`), and on any error of the call's own validators, modifiers or
///   authentication.
/// - **Cancelling** the task that reads stops it at once, during the wait for a reconnection
///   too: the read throws a ``RequestError`` for which ``RequestError/isCancellation`` is `true`.
///
/// Each iteration opens its own connection. Errors go through the client's ``ApiClient/mapError(_:)``.
public struct ServerSentEventStream: AsyncSequence, Sendable {
    /// What the stream yields.
    public enum Element: Sendable, Equatable {
        /// An event, parsed as ``ServerSentEvent`` says (its `lastEventId` and `retry` carry
        /// over from the earlier connections).
        case event(ServerSentEvent)
        /// The connection dropped and a new one answered with an event stream; it was asked to
        /// go on after `lastEventId` (`""`: no event had an ID, and no `Last-Event-ID` was sent).
        case reconnected(lastEventId: String)
    }

    let request: RequestBuilder
    let maxReconnects: Int
    let reconnectionTime: TimeInterval

    /// An iterator over the events, across the reconnections the stream allows.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// Reads one connection at a time, and opens the next one when it ends.
    public struct Iterator: AsyncIteratorProtocol {
        let stream: ServerSentEventStream
        var parser = ServerSentEventParser()
        var lines: TextLineSequence<ResponseBody>.Iterator?
        /// The request the last connection sent, for the errors that follow it.
        var lastRequest: TransportRequest?
        var reconnects = 0
        var isOver = false

        /// The next event, reconnecting as the stream allows; `nil` when the stream is over.
        public mutating func next() async throws -> Element? {
            do {
                return try await nextElement()
            } catch {
                isOver = true
                lines = nil
                throw stream.request.client.mapped(error)
            }
        }

        private mutating func nextElement() async throws -> Element? {
            while !isOver {
                guard var current = lines else {
                    if let reconnected = try await connect() { return reconnected }
                    continue
                }
                do {
                    guard let line = try await current.next() else {
                        lines = nil
                        try await reconnect(after: nil)
                        continue
                    }
                    lines = current
                    if let event = parser.event(after: line) { return .event(event) }
                } catch let error as RequestError where error.isReconnectable {
                    // Only the read fails so: a reconnection's wait in this block throws a cancellation, not caught here.
                    lines = nil
                    try await reconnect(after: error)
                }
            }
            return nil
        }

        /// Opens a connection; returns the element that announces a reconnection, if it is one.
        private mutating func connect() async throws -> Element? {
            let lastEventId = parser.reconnectionEventId
            let response: Response<ResponseBody>, request: TransportRequest
            do {
                (response, request) = try await stream.request.modifier(Self.eventStreamHeaders(lastEventId: lastEventId)).openStream()
            } catch let error as RequestError where error.isReconnectable {
                try await reconnect(after: error)
                return nil
            }
            lastRequest = request
            try await Self.check(response, of: request)
            guard response.statusCode != 204 else {
                isOver = true
                return nil
            }
            parser.startNewStream()
            lines = TextLineSequence(base: response.body).makeAsyncIterator()
            return reconnects > 0 ? .reconnected(lastEventId: lastEventId) : nil
        }

        /// Waits the reconnection time, then lets the loop connect again; when no reconnection
        /// is left, ends the stream the way the connection ended (`error`, or normally).
        private mutating func reconnect(after failed: RequestError?) async throws {
            guard reconnects < stream.maxReconnects else {
                isOver = true
                if let failed { throw failed }
                return
            }
            reconnects += 1
            let delay = parser.retry.map { TimeInterval($0) / 1000 } ?? stream.reconnectionTime
            do {
                try await Task.sleep(nanoseconds: UInt64(Swift.min(Swift.max(delay, 0), 86_400) * 1_000_000_000))
            } catch {
                // The request that failed, else the last one that connected.
                let request = failed?.request ?? lastRequest?.urlRequest ?? URLRequest(url: stream.request.client.baseUrl)
                throw RequestError.transport(request, CancellationError())
            }
        }

        /// `Accept` unless the request has one, and `Last-Event-ID` when there is an ID to send.
        private static func eventStreamHeaders(lastEventId: String) -> RequestModifier {
            RequestModifier(editing: { request in
                if request.headerFields["Accept"] == nil { request.headerFields.set("text/event-stream", for: "Accept") }
                if !lastEventId.isEmpty { request.headerFields.set(lastEventId, for: "Last-Event-ID") }
            })
        }

        /// HTML's rule for an event stream's response: `200` with `text/event-stream`, or `204`.
        private static func check(_ response: Response<ResponseBody>, of request: TransportRequest) async throws {
            let contentType = response.httpResponse.value(forHTTPHeaderField: "Content-Type")
            let failure: any Error
            switch response.statusCode {
            case 204:
                return
            case 200:
                let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
                guard mediaType != "text/event-stream" else { return }
                failure = ApiClientError.unacceptableContentType(contentType, acceptable: ["text/event-stream"])
            default:
                failure = ApiClientError.unacceptableStatusCode(response.statusCode, acceptable: 200..<201)
            }
            // A failure status's body is the error document, already read (up to 1 MiB). A 2xx
            // body is the live stream, handed over unread: it is left unread, or this would wait
            // for the stream to end.
            var document = Data()
            if !(200..<300).contains(response.statusCode) { for try await chunk in response.body { document.append(chunk) } }
            throw RequestError.validate(request.urlRequest, data: document, response: response.httpResponse, error: failure)
        }
    }
}

extension RequestError {
    /// A failure of the connection itself, after which an event stream connects again: a
    /// transport error other than a cancellation.
    fileprivate var isReconnectable: Bool {
        if case .transport = self { !isCancellation } else { false }
    }
}
