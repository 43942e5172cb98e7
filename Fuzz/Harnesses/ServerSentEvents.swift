/// Fuzzes the Server-Sent Events parser and the line splitter under it
/// (Sources/SwiftApiDsl/Streaming) with any bytes, cut into chunks the input chooses.
///
/// Properties: the splitter gives the lines an independent reference gives for the whole
/// stream (`\n`, `\r\n` and a lone `\r` end a line), whatever the chunk split, empty chunks
/// included; the parser, and the parser over the public `lines` sequence (as an event stream reads), yield the same events for
/// every split; no event has an empty type, a CR or LF in its type or ID, a NUL in its ID, a CR
/// in its data, or a negative `retry`.
@testable import SwiftApiDsl
import Foundation

let serverSentEventsHarness: Harness = { input in
    let sizes = (0..<4).map { _ in Int(input.byte() % 17) }
    let stream = input.rest()

    let reference = referenceLines(stream)
    let chunkings = [[stream[...]], stream.map { [$0][...] }, chunks(of: stream, sizes: sizes)]
    var events: [ServerSentEvent]?
    for chunking in chunkings {
        var splitter = LineSplitter()
        var lines = chunking.flatMap { splitter.lines(completedBy: Data($0)) }
        if let last = splitter.finish() { lines.append(last) }
        require(lines == reference, "lines \(lines) differ from the reference \(reference) for the chunks \(chunking.map(Array.init))")

        var parser = ServerSentEventParser()
        let parsed = lines.compactMap { parser.event(after: $0) }
        if let events {
            require(parsed == events, "events \(parsed) differ from \(events) for another chunk split")
        }
        events = parsed
    }
    for event in events ?? [] {
        require(!event.type.isEmpty, "event with an empty type: \(event)")
        require(!(event.type + event.lastEventId).unicodeScalars.contains { $0 == "\r" || $0 == "\n" }, "CR or LF in a type or ID: \(event)")
        require(!event.lastEventId.unicodeScalars.contains("\u{0}"), "NUL in the ID: \(event)")
        require(!event.data.unicodeScalars.contains("\r"), "CR in the data: \(event)")
        require((event.retry ?? 0) >= 0, "negative retry: \(event)")
    }

    // The public line sequence, over the input's own split, read as an event stream reads it.
    let split = chunks(of: stream, sizes: sizes).map { Data($0) }
    let streamed = runBlocking {
        let body = AsyncStream<Data> { continuation in
            for chunk in split { continuation.yield(chunk) }
            continuation.finish()
        }
        var collected: [ServerSentEvent] = []
        var parser = ServerSentEventParser()
        for try await line in body.lines {
            if let event = parser.event(after: line) { collected.append(event) }
        }
        return collected
    }
    require((try? streamed.get()) == events, "the lines read gave \(streamed), the parser \(events ?? [])")
}

/// `bytes` cut into chunks of the given sizes, used in turn (0 makes an empty chunk).
private func chunks(of bytes: [UInt8], sizes: [Int]) -> [ArraySlice<UInt8>] {
    var result: [ArraySlice<UInt8>] = []
    var start = 0
    var turn = 0
    while start < bytes.count {
        let end = min(bytes.count, start + sizes[turn % sizes.count])
        result.append(bytes[start..<end])
        start = end
        turn += 1
        if turn > 4 * bytes.count + 8 { break }
    }
    if start < bytes.count { result.append(bytes[start...]) }
    return result
}

/// The lines of the whole stream, cut by a plain loop over the bytes.
private func referenceLines(_ bytes: [UInt8]) -> [String] {
    var lines: [String] = []
    var current: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A || byte == 0x0D {
            lines.append(String(decoding: current, as: UTF8.self))
            current = []
            if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
        } else {
            current.append(byte)
        }
    }
    if !current.isEmpty { lines.append(String(decoding: current, as: UTF8.self)) }
    return lines
}
