import Foundation
import Testing
@testable import SwiftApiDsl

/// Parsing of `text/event-stream` per WHATWG HTML, each input checked at every split.
@Suite struct ServerSentEventTests {
    func events(of text: String) async throws -> [ServerSentEvent] {
        try await events(of: Data(text.utf8))
    }

    /// The events of `bytes`, after checking that every way of cutting them gives the same.
    func events(of bytes: Data) async throws -> [ServerSentEvent] {
        let whole = try await parsed([bytes])
        for chunks in everySplit(of: bytes) {
            let split = try await parsed(chunks)
            #expect(split == whole, "differs when cut as \(chunks.map(\.count))")
        }
        return whole
    }

    /// The events an event stream reads from one connection cut into `chunks`: its lines, parsed.
    func parsed(_ chunks: [Data]) async throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return try await collect(chunkStream(chunks).lines).compactMap { parser.event(after: $0) }
    }

    @Test func dataLinesAreJoinedWithLineFeeds() async throws {
        #expect(try await events(of: "data: one\ndata: two\ndata:three\n\n") == [ServerSentEvent(data: "one\ntwo\nthree")])
    }

    @Test func eventTypeDefaultsToMessageAndDoesNotCarryOver() async throws {
        let text = "event: add\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n"
        #expect(try await events(of: text) == [
            ServerSentEvent(type: "add", data: "1"),
            ServerSentEvent(type: "message", data: "2"),
            ServerSentEvent(type: "message", data: "3"),
        ])
    }

    @Test func idPersistsUntilReplacedAndIsIgnoredWithNul() async throws {
        let text = "id: 1\ndata: a\n\ndata: b\n\nid: 2\u{0}x\ndata: c\n\nid\ndata: d\n\nid: 3\n\ndata: e\n\n"
        #expect(try await events(of: text) == [
            ServerSentEvent(data: "a", lastEventId: "1"),
            ServerSentEvent(data: "b", lastEventId: "1"),
            ServerSentEvent(data: "c", lastEventId: "1"),
            ServerSentEvent(data: "d", lastEventId: ""),
            ServerSentEvent(data: "e", lastEventId: "3"),
        ])
    }

    @Test func retryTakesDigitsOnly() async throws {
        let text = "retry: 3000\n\ndata: a\n\nretry: 12a\nretry: -1\nretry:\nretry: 1.5\ndata: b\n\nretry:250\ndata: c\n\n"
        #expect(try await events(of: text) == [
            ServerSentEvent(data: "a", retry: 3000),
            ServerSentEvent(data: "b", retry: 3000),
            ServerSentEvent(data: "c", retry: 250),
        ])
    }

    @Test func commentsUnknownFieldsAndBlocksWithoutDataDispatchNothing() async throws {
        let text = ": hello\n:\n\nevent: ping\n\nfoo: bar\nDATA: x\n\ndata: real\n: inside\n\n"
        #expect(try await events(of: text) == [ServerSentEvent(data: "real")])
    }

    @Test func onlyOneSpaceAfterTheColonIsRemoved() async throws {
        let text = "data:  two spaces\ndata:\ttab\ndata:: colon\nevent:  spaced\n\n"
        #expect(try await events(of: text) == [ServerSentEvent(type: " spaced", data: " two spaces\n\ttab\n: colon")])
    }

    @Test func aFieldWithoutColonHasAnEmptyValue() async throws {
        #expect(try await events(of: "data\n\ndata\ndata\n\ndata:\n\n") == [
            ServerSentEvent(data: ""),
            ServerSentEvent(data: "\n"),
            ServerSentEvent(data: ""),
        ])
    }

    @Test func everyLineTerminatorWorksAndMixes() async throws {
        let expected = [ServerSentEvent(data: "1\n2"), ServerSentEvent(type: "x", data: "3")]
        #expect(try await events(of: "data: 1\r\ndata: 2\r\n\r\nevent: x\r\ndata: 3\r\n\r\n") == expected)
        #expect(try await events(of: "data: 1\rdata: 2\r\revent: x\rdata: 3\r\r") == expected)
        #expect(try await events(of: "data: 1\ndata: 2\r\n\revent: x\rdata: 3\n\r\n") == expected)
    }

    @Test func aLeadingByteOrderMarkIsIgnoredOnlyAtTheStart() async throws {
        #expect(try await events(of: "\u{FEFF}data: a\n\n") == [ServerSentEvent(data: "a")])
        // A second mark is part of the line, so that line is the unknown field "\u{FEFF}data".
        #expect(try await events(of: "\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n") == [ServerSentEvent(data: "b")])
        #expect(try await events(of: "data: a\n\n\u{FEFF}data: b\n\n") == [ServerSentEvent(data: "a")])
    }

    @Test func anUnterminatedLastEventIsDiscarded() async throws {
        #expect(try await events(of: "data: a\n\ndata: b\n") == [ServerSentEvent(data: "a")])
        #expect(try await events(of: "data: a\n\ndata: b") == [ServerSentEvent(data: "a")])
    }

    @Test func multiByteTextSurvivesEverySplit() async throws {
        #expect(try await events(of: "event: 🎉\ndata: é€😀\n\n") == [ServerSentEvent(type: "🎉", data: "é€😀")])
    }

    @Test func aRealisticStreamParsesExactly() async throws {
        let text = """
            : stream opened\r
            retry: 1500\r
            \r
            id: 41\r
            event: token\r
            data: {"text":"Hel"}\r
            \r
            id: 42\n\
            event: token\n\
            data: {"text":"lo"}\n\
            \n\
            data: line one\n\
            data: line two\n\
            \n\
            event: done\n\
            data: [DONE]\n\
            \n
            """
        #expect(try await events(of: text) == [
            ServerSentEvent(type: "token", data: #"{"text":"Hel"}"#, lastEventId: "41", retry: 1500),
            ServerSentEvent(type: "token", data: #"{"text":"lo"}"#, lastEventId: "42", retry: 1500),
            ServerSentEvent(data: "line one\nline two", lastEventId: "42", retry: 1500),
            ServerSentEvent(type: "done", data: "[DONE]", lastEventId: "42", retry: 1500),
        ])
    }
}
