import Foundation

/// The lines of a stream of UTF-8 text that arrives in `Data` chunks, for example a streamed
/// response body. Made by ``_Concurrency/AsyncSequence/lines``.
///
/// - `\n`, `\r\n` and a lone `\r` each end a line; terminators are not part of the lines.
/// - A character or a `\r\n` split across two chunks is put back together.
/// - A last line without a terminator is delivered when the stream ends; a stream ending with
///   a terminator has no empty line after it (`"a\nb\n"` gives `"a"`, `"b"`).
/// - Invalid UTF-8 becomes U+FFFD (�); no byte order mark is removed.
/// - An error of the underlying stream is thrown after the lines completed before it.
public struct TextLineSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
    let base: Base

    /// An iterator over the lines, reading the base sequence only as lines are asked for.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Reads chunks on demand and hands out the lines they complete.
    public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var splitter = LineSplitter()
        var ready: ArraySlice<String> = []
        var ended = false

        /// The next line without its line break; `nil` after the last one.
        public mutating func next() async throws -> String? {
            while ready.isEmpty, !ended {
                if let chunk = try await base.next() {
                    ready = splitter.lines(completedBy: chunk)[...]
                } else {
                    ended = true
                    ready = splitter.finish().map { [$0] } ?? []
                }
            }
            return ready.popFirst()
        }
    }
}

extension TextLineSequence: Sendable where Base: Sendable {}

extension AsyncSequence where Element == Data {
    /// The UTF-8 text lines of this stream of chunks; `\n`, `\r\n` and `\r` end a line.
    ///
    /// ```swift
    /// for try await line in chunks.lines {
    ///     print(line)
    /// }
    /// ```
    /// See ``TextLineSequence`` for the edge cases.
    public var lines: TextLineSequence<Self> { TextLineSequence(base: self) }
}
