/// One event of a `text/event-stream` (Server-Sent Events), as HTML's event-stream parsing
/// dispatches it. Read them with ``RequestBuilder/serverSentEvents(maxReconnects:reconnectionTime:)``.
///
/// ```swift
/// for try await case .event(let event) in client.get("feed").serverSentEvents(maxReconnects: 0) where event.type == "update" {
///     let update = try JSONDecoder().decode(Update.self, from: Data(event.data.utf8))
/// }
/// ```
/// The parsing rules: lines end with `\n`, `\r\n` or `\r`, also when split across chunks; a
/// leading byte order mark is ignored; invalid UTF-8 becomes U+FFFD. An empty line dispatches the
/// event; a block with no `data` field dispatches nothing. `data` fields are joined with `"\n"`;
/// comments (`:` lines) and unknown fields are ignored; one space after a field's colon is
/// removed; a line without a colon is a field with an empty value. `id` persists across events
/// and is ignored when it contains U+0000; `retry` is taken when it is ASCII digits only. When a
/// connection ends, an event not closed by an empty line is discarded.
public struct ServerSentEvent: Sendable, Equatable, Hashable {
    /// The event's type: the last `event:` field of its block, or `"message"` when there was none.
    public var type: String
    /// The event's data: the values of its `data:` fields joined with `"\n"`.
    public var data: String
    /// The stream's last event ID when the event was dispatched: the value of the latest `id:`
    /// field so far, in this event or an earlier one (an ID persists until another replaces it;
    /// `id:` with no value resets it to `""`). Send it back as `Last-Event-ID` when reconnecting.
    public var lastEventId: String
    /// The reconnection time in milliseconds that the stream last asked for with `retry:`, in this
    /// event or an earlier one; `nil` when it never did. A `retry:` after the last event is not seen.
    public var retry: Int?

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventId: String = "", retry: Int? = nil) {
        self.type = type
        self.data = data
        self.lastEventId = lastEventId
        self.retry = retry
    }
}
