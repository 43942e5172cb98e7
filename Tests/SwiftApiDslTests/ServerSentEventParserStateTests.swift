import Foundation
import Testing
@testable import SwiftApiDsl

/// What the event-stream parser keeps from one connection to the next, as an `EventSource`
/// does when it reconnects: the last event ID as of the last empty line, and `retry`.
@Suite struct ServerSentEventParserStateTests {
    /// The events `lines` dispatch, fed one by one.
    private func feed(_ parser: inout ServerSentEventParser, _ lines: [String]) -> [ServerSentEvent] {
        lines.compactMap { parser.event(after: $0) }
    }

    @Test func anIdCountsForReconnectionOnlyOnceItsBlockEnds() {
        var parser = ServerSentEventParser()
        _ = feed(&parser, ["id: 1", "data: one", ""])
        #expect(parser.reconnectionEventId == "1")
        _ = feed(&parser, ["id: 2", "data: lost"])
        #expect(parser.reconnectionEventId == "1")
    }

    @Test func anIdInABlockWithoutDataStillCountsAtItsEmptyLine() {
        var parser = ServerSentEventParser()
        #expect(feed(&parser, ["id: 7", ""]) == [])
        #expect(parser.reconnectionEventId == "7")
    }

    @Test func aNewStreamDropsTheUnfinishedBlockAndKeepsIdAndRetry() {
        var parser = ServerSentEventParser()
        _ = feed(&parser, ["retry: 250", "id: 1", "data: one", "", "event: update", "id: 2", "data: lost"])
        parser.startNewStream()
        #expect(feed(&parser, ["data: two", ""]) == [ServerSentEvent(data: "two", lastEventId: "1", retry: 250)])
        #expect(parser.retry == 250)
    }

    @Test func aNewStreamMayStartWithAByteOrderMarkAgain() {
        var parser = ServerSentEventParser()
        _ = feed(&parser, ["\u{FEFF}data: one", ""])
        parser.startNewStream()
        #expect(feed(&parser, ["\u{FEFF}data: two", ""]) == [ServerSentEvent(data: "two")])
    }

    @Test func aRetryWithoutAnEventIsKnownBeforeAnyDispatch() {
        var parser = ServerSentEventParser()
        #expect(feed(&parser, ["retry: 1500", ""]) == [])
        #expect(parser.retry == 1500)
    }
}
