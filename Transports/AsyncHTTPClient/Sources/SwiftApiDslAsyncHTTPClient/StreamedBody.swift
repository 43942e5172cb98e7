import Foundation
import NIOCore
import NIOFoundationCompat
import SwiftApiDsl

/// A body that is read from disk while it is sent: the chunks of a file or of an encoded
/// multipart form, for `HTTPClientRequest.Body.stream(_:length:)`.
///
/// AsyncHTTPClient asks for the next chunk only once the previous one is on its way, so at most
/// a few chunks are in memory whatever the size of the body. Each chunk handed out counts as
/// activity for the idle timeout. Files are read with blocking calls, which on a local disk
/// take a fraction of a millisecond per chunk.
struct StreamedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The body to read.
    let source: RequestBody
    /// The exact number of bytes the body holds; a file that grows is cut there.
    let length: Int64
    /// Told of each chunk read.
    let watchdog: IdleWatchdog?

    /// How many bytes one chunk holds at most.
    static let chunkSize = 256 * 1024

    /// Reads the size of the body: a file's from the file system, a form's from its parts.
    init(_ source: RequestBody, watchdog: IdleWatchdog?) throws {
        self.source = source
        self.watchdog = watchdog
        switch source {
        case .file(let url):
            guard let size = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
            length = Int64(size)
        case .multipart(let form):
            length = try form.contentLength()
        }
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(body: self)
    }

    /// Opens the file or the form at the first chunk and closes it after the last.
    struct Iterator: AsyncIteratorProtocol {
        private enum Reader {
            case unopened
            case file(FileHandle, URL)
            case multipart(MultipartBodyReader)
            case finished
        }

        private let body: StreamedBody
        private var reader = Reader.unopened
        private var remaining: Int64

        init(body: StreamedBody) {
            self.body = body
            remaining = body.length
        }

        mutating func next() async throws -> ByteBuffer? {
            if case .unopened = reader { try open() }
            let chunk: ByteBuffer?
            switch reader {
            case .unopened, .finished:
                chunk = nil
            case .file(let handle, let url):
                chunk = try Self.read(handle, url: url, count: Int(Swift.min(remaining, Int64(StreamedBody.chunkSize))))
            case .multipart(let form):
                chunk = try form.next().map { ByteBuffer(data: $0) }
            }
            guard let chunk else {
                close()
                return nil
            }
            remaining -= Int64(chunk.readableBytes)
            body.watchdog?.noteActivity()
            return chunk
        }

        private mutating func open() throws {
            switch body.source {
            case .file(let url):
                reader = .file(try FileHandle(forReadingFrom: url), url)
            case .multipart(let form):
                reader = .multipart(form.makeReader(chunkSize: StreamedBody.chunkSize))
            }
        }

        private mutating func close() {
            if case .file(let handle, _) = reader { try? handle.close() }
            reader = .finished
        }

        /// Reads up to `count` bytes straight into a buffer; `nil` once `count` is 0.
        private static func read(_ handle: FileHandle, url: URL, count: Int) throws -> ByteBuffer? {
            guard count > 0 else { return nil }
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            let bytesRead = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { memory in
                var result: Int
                repeat {
                    result = Foundation.read(handle.fileDescriptor, memory.baseAddress, count)
                } while result < 0 && errno == EINTR
                guard result >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                return result
            }
            guard bytesRead > 0 else {
                // The Content-Length sent announced more bytes than the file now has.
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
            }
            return buffer
        }
    }
}
