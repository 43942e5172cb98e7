/// The state machine of HTML's "parsing an event stream" (WHATWG HTML, Server-sent events),
/// fed one line at a time.
///
/// - A leading U+FEFF (byte order mark) on the first line is ignored.
/// - An empty line dispatches the event, unless its block had no `data` field at all (a `data`
///   field with an empty value does dispatch, with `""` as data).
/// - A line starting with `:` is a comment. Otherwise the field name runs to the first `:` (the
///   whole line when there is none, the value then being empty) and one space after the colon
///   is removed from the value.
/// - `event` sets the type, `data` adds a line of data, `id` sets the last event ID unless its
///   value contains U+0000, `retry` sets the reconnection time when its value is ASCII digits
///   only (and not empty); other fields are ignored.
/// - At the end of the stream, an event without its closing empty line is discarded: the
///   caller simply stops feeding lines, or calls ``startNewStream()`` to go on with another
///   connection, as an `EventSource` does when it reconnects.
struct ServerSentEventParser: Sendable {
    /// The fields of the block being read, up to its empty line.
    private var block = Block()
    private var lastEventId = ""
    /// The reconnection time in milliseconds the stream last asked for with `retry:`.
    private(set) var retry: Int?
    /// What a reconnection sends as `Last-Event-ID`: the last event ID as of the last empty line
    /// (HTML's "last event ID string" of the event source), so an `id:` in a block the connection
    /// lost before its end does not count.
    private(set) var reconnectionEventId = ""
    private var isFirstLine = true

    /// Starts parsing another connection's stream: the unfinished block of the last one is
    /// dropped; the last event ID (as of its last empty line) and the reconnection time are kept.
    mutating func startNewStream() {
        block = Block()
        lastEventId = reconnectionEventId
        isFirstLine = true
    }

    /// Processes one line (without its terminator); returns the event it dispatches, if any.
    mutating func event(after line: String) -> ServerSentEvent? {
        var line = Substring(line)
        if isFirstLine {
            isFirstLine = false
            if line.unicodeScalars.first == "\u{FEFF}" { line = Substring(line.unicodeScalars.dropFirst()) }
        }
        if line.isEmpty { return dispatch() }
        if line.first == ":" { return nil }
        guard let colon = line.firstIndex(of: ":") else {
            process(field: line, value: "")
            return nil
        }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        process(field: line[..<colon], value: value)
        return nil
    }

    private mutating func process(field: Substring, value: Substring) {
        switch field {
        case "event":
            block.type = String(value)
        case "data":
            if block.hasData { block.data += "\n" }
            block.data += value
            block.hasData = true
        case "id" where !value.unicodeScalars.contains("\u{0}"):
            lastEventId = String(value)
        case "retry" where !value.isEmpty && value.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }):
            // Digits only, so the one failure left is overflow: such a value is ignored too.
            if let milliseconds = Int(value) { retry = milliseconds }
        default:
            break
        }
    }

    /// The spec keeps a trailing `\n` in its data buffer and removes it here; joining the lines
    /// with `\n` gives the same text. `hasData` tells "no data field" from "one empty data field".
    private mutating func dispatch() -> ServerSentEvent? {
        reconnectionEventId = lastEventId
        defer { block = Block() }
        guard block.hasData else { return nil }
        return ServerSentEvent(type: block.type.isEmpty ? "message" : block.type, data: block.data, lastEventId: lastEventId, retry: retry)
    }

    /// What a block has set so far: its `event` type and its joined `data`.
    private struct Block {
        var data = ""
        var hasData = false
        var type = ""
    }
}
