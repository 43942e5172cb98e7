import Foundation
import NIOCore
import NIOFoundationCompat
import SwiftApiDsl

/// A body that is read from disk while it is sent: the chunks of a file or of an encoded
/// multipart form, as the core's `BodyReader` hands them out, for
/// `HTTPClientRequest.Body.stream(_:length:)`.
///
/// AsyncHTTPClient asks for the next chunk only once the previous one is on its way, so at most
/// a few chunks are in memory whatever the size of the body. Each chunk handed out counts as
/// activity for the idle timeout. Files are read with blocking calls, which on a local disk
/// take a fraction of a millisecond per chunk.
struct StreamedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The body to read.
    let source: RequestBody
    /// The exact number of bytes the body holds.
    let length: Int64
    /// Told of each chunk read.
    let watchdog: IdleWatchdog?

    /// How many bytes one chunk holds at most.
    static let chunkSize = 256 * 1024

    /// Reads the size of the body from the file system.
    init(_ source: RequestBody, watchdog: IdleWatchdog?) throws {
        self.source = source
        self.length = try source.contentLength()
        self.watchdog = watchdog
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(body: self)
    }

    /// Opens the body at the first chunk.
    struct Iterator: AsyncIteratorProtocol {
        private let body: StreamedBody
        private var reader: BodyReader?

        init(body: StreamedBody) {
            self.body = body
        }

        mutating func next() async throws -> ByteBuffer? {
            if reader == nil { reader = body.source.makeReader(chunkSize: StreamedBody.chunkSize) }
            guard let chunk = try reader?.next() else { return nil }
            body.watchdog?.noteActivity()
            return ByteBuffer(data: chunk)
        }
    }
}
