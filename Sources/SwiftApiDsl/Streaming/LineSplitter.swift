import Foundation

/// Cuts a stream of UTF-8 bytes, arriving in chunks of any size, into lines.
///
/// `\n`, `\r\n` and a lone `\r` each end a line, as in HTML's event-stream grammar. Bytes are kept
/// until their line ends, so a multi-byte character or a `\r\n` split across chunks is handled;
/// a line is decoded only then, invalid UTF-8 becoming U+FFFD. (A `\r` or `\n` byte is never part
/// of a multi-byte UTF-8 sequence, so cutting on them before decoding is safe.)
struct LineSplitter: Sendable {
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    /// The bytes of the line not yet ended.
    private var pending = Data()
    /// Whether the last byte seen was a `\r`, so that a `\n` opening the next chunk belongs to it.
    private var afterCarriageReturn = false

    /// The lines that `chunk` completes, without their terminators, in order.
    mutating func lines(completedBy chunk: Data) -> [String] {
        var lines: [String] = []
        var start = chunk.startIndex
        while start < chunk.endIndex {
            // A `\n` right after a `\r` (in this chunk or the last) ends no line of its own.
            // (A skip at the chunk's end leaves an empty rest, which the guard below puts in `pending`.)
            if afterCarriageReturn, chunk[start] == Self.lineFeed { start += 1 }
            afterCarriageReturn = false
            guard let end = chunk[start...].firstIndex(where: { $0 == Self.lineFeed || $0 == Self.carriageReturn }) else {
                pending.append(chunk[start...])
                break
            }
            pending.append(chunk[start..<end])
            lines.append(String(decoding: pending, as: UTF8.self))
            pending.removeAll(keepingCapacity: true)
            afterCarriageReturn = chunk[end] == Self.carriageReturn
            start = end + 1
        }
        return lines
    }

    /// The last line, when the stream ended without a terminator after it; `nil` otherwise.
    mutating func finish() -> String? {
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }
}
