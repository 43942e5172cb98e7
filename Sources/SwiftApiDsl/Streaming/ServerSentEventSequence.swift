import Foundation

/// The events of a `text/event-stream` body that arrives in `Data` chunks, parsed as HTML's
/// "parsing an event stream" says. Made by ``_Concurrency/AsyncSequence/serverSentEvents``.
///
/// - Lines end with `\n`, `\r\n` or `\r`, also when split across chunks; a leading byte order
///   mark is ignored; invalid UTF-8 becomes U+FFFD.
/// - An empty line dispatches the event; a block with no `data` field dispatches nothing.
/// - `data` fields are joined with `"\n"`; comments (`:` lines) and unknown fields are ignored;
///   one space after a field's colon is removed; a line without a colon is a field with an
///   empty value (`data` alone adds an empty line of data).
/// - `id` persists across events (see ``ServerSentEvent/lastEventId``) and is ignored when it
///   contains U+0000; `retry` is taken when it is ASCII digits only.
/// - When the stream ends, an event not closed by an empty line is discarded.
/// - An error of the underlying stream is thrown after the events completed before it.
public struct ServerSentEventSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
    public typealias Element = ServerSentEvent

    let base: Base

    public func makeAsyncIterator() -> Iterator {
        Iterator(lines: TextLineSequence(base: base).makeAsyncIterator())
    }

    /// Reads lines on demand until one dispatches an event.
    public struct Iterator: AsyncIteratorProtocol {
        var lines: TextLineSequence<Base>.Iterator
        var parser = ServerSentEventParser()

        public mutating func next() async throws -> ServerSentEvent? {
            while let line = try await lines.next() {
                if let event = parser.event(after: line) { return event }
            }
            return nil
        }
    }
}

extension ServerSentEventSequence: Sendable where Base: Sendable {}

extension AsyncSequence where Element == Data {
    /// The Server-Sent Events of this `text/event-stream` body.
    ///
    /// ```swift
    /// for try await event in chunks.serverSentEvents {
    ///     print(event.type, event.data)
    /// }
    /// ```
    /// See ``ServerSentEventSequence`` for the parsing rules.
    public var serverSentEvents: ServerSentEventSequence<Self> { ServerSentEventSequence(base: self) }
}
