import Foundation
import Testing
import SwiftApiDsl

/// A stream of `chunks`, as a streamed body would deliver them.
func chunkStream(_ chunks: [Data]) -> AsyncStream<Data> {
    AsyncStream { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
    }
}

/// `bytes` cut once at every possible place (the first and last cuts give an empty chunk),
/// then one byte per chunk.
func everySplit(of bytes: Data) -> [[Data]] {
    (0...bytes.count).map { cut in [bytes.prefix(cut), bytes.dropFirst(cut)] }
        + [bytes.map { Data([$0]) }]
}

/// Everything an async sequence yields, in order.
func collect<S: AsyncSequence>(_ sequence: S) async throws -> [S.Element] {
    var elements: [S.Element] = []
    for try await element in sequence { elements.append(element) }
    return elements
}

@Suite struct LineSequenceTests {
    func lines(of text: String) async throws -> [[String]] {
        var results: [[String]] = []
        for chunks in everySplit(of: Data(text.utf8)) {
            results.append(try await collect(chunkStream(chunks).lines))
        }
        return results
    }

    @Test func everyTerminatorEndsALineAtEverySplit() async throws {
        for result in try await lines(of: "one\ntwo\r\nthree\rfour") {
            #expect(result == ["one", "two", "three", "four"])
        }
    }

    @Test func emptyLinesAreKeptAndCRLFIsOneTerminator() async throws {
        for result in try await lines(of: "a\r\n\r\n\n\r\rb\n") {
            #expect(result == ["a", "", "", "", "", "b"])
        }
    }

    @Test func aTrailingTerminatorAddsNoEmptyLine() async throws {
        for result in try await lines(of: "last\r") { #expect(result == ["last"]) }
        for result in try await lines(of: "last\r\n") { #expect(result == ["last"]) }
        #expect(try await collect(chunkStream([]).lines) == [])
        #expect(try await collect(chunkStream([Data(), Data()]).lines) == [])
    }

    @Test func multiByteCharactersSplitAcrossChunksAreKept() async throws {
        for result in try await lines(of: "héllo wörld\n€ 😀\r\n日本") {
            #expect(result == ["héllo wörld", "€ 😀", "日本"])
        }
    }

    @Test func invalidUTF8BecomesReplacementCharacters() async throws {
        let bytes = Data([0x61, 0xFF, 0x62, 0x0A, 0xE2, 0x82, 0x0A])
        #expect(try await collect(chunkStream([bytes]).lines) == ["a\u{FFFD}b", "\u{FFFD}"])
    }

    @Test func anErrorOfTheStreamComesAfterTheLinesBeforeIt() async throws {
        struct Broken: Error {}
        let stream = AsyncThrowingStream<Data, Error> { continuation in
            continuation.yield(Data("a\nb".utf8))
            continuation.finish(throwing: Broken())
        }
        var iterator = stream.lines.makeAsyncIterator()
        #expect(try await iterator.next() == "a")
        await #expect(throws: Broken.self) { try await iterator.next() }
    }
}
