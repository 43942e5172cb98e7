import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import SwiftApiDsl

extension HTTPClientRequest {
    /// Header fields that AsyncHTTPClient writes itself from the body it is given.
    private static let framingFields = ["content-length", "transfer-encoding"]
    /// The W3C trace context fields, which an `HTTPClient` with a tracer writes itself.
    private static let traceContextFields = ["traceparent", "tracestate"]

    /// Whether `name` is one of `names` (lowercase); a name of another length is not lowercased.
    private static func isOne(of names: [String], _ name: String) -> Bool {
        names.contains { $0.utf8.count == name.utf8.count && $0 == name.lowercased() }
    }

    /// How many bytes of a body are handed to AsyncHTTPClient at a time: each chunk costs a
    /// wait of the task that reads it (256 KiB uploaded 1 GiB at 0.47–0.58 of curl's speed, 1 MiB
    /// at 0.55–0.93; Benchmarks/NOTES.md).
    static let uploadChunkSize = 1024 * 1024
    /// The largest body in memory sent in one write, without progress until the answer.
    static let largestWholeBody = 256 * 1024

    /// The AsyncHTTPClient form of `request`: URL, method, header fields, body and TLS settings.
    ///
    /// A body of at most ``largestWholeBody`` bytes in memory goes whole. Any other body goes as
    /// ``UploadChunks``: AsyncHTTPClient asks for each chunk once the previous one is written, and
    /// `sent` hears of it. A file or multipart body goes with its exact `Content-Length`
    /// (never chunked), its size read now, so that a missing file fails before anything is
    /// sent; a streamed body of unknown length goes chunked.
    ///
    /// When the `HTTPClient` `tracesExchanges` (its configuration has a tracer), the request's
    /// `traceparent` and `tracestate` are left out: AsyncHTTPClient starts its span for the
    /// exchange as a child of the caller's and sends that one, and two would be a broken trace.
    init(_ request: TransportRequest, tracesExchanges: Bool, sent: @escaping @Sendable (Int) -> Void) throws {
        // The request's own fields: no `URLRequest` is made on this path.
        guard let url = request.url else { throw URLError(.badURL) }
        self.init(url: url.absoluteString)
        method = HTTPMethod(rawValue: request.method.rawValue)
        headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields where !Self.isOne(of: Self.framingFields, field.name) {
            if tracesExchanges, Self.isOne(of: Self.traceContextFields, field.name) { continue }
            headers.add(name: field.name, value: field.value)
        }
        switch request.body {
        case .stream(let streamed)?:
            let length: HTTPClientRequest.Body.Length = streamed.length.map { .known($0) } ?? .unknown
            body = .stream(UploadChunks(.chunks(try streamed.makeChunks().makeAsyncIterator()), sent: sent), length: length)
        case let streamed?:
            let length = try streamed.contentLength()
            body = .stream(UploadChunks(.reader(streamed.makeReader(chunkSize: Self.uploadChunkSize)), sent: sent), length: .known(length))
        case nil:
            if let data = request.httpBody, Self.wholeBodySize(of: request) != nil {
                body = .bytes(ByteBuffer(data: data))
            } else if let data = request.httpBody {
                body = .stream(UploadChunks(.memory(data, chunkSize: Self.uploadChunkSize), sent: sent), length: .known(Int64(data.count)))
            }
        }
        tlsConfiguration = try request.tls.map { try $0.tlsConfiguration(for: url) }
    }
}

extension HTTPClientRequest {
    /// The size of `request`'s body when it is sent whole, in one write: bytes in memory, at
    /// most ``largestWholeBody`` of them. AsyncHTTPClient says nothing of such a write: the
    /// exchange reports it once the answer came.
    static func wholeBodySize(of request: TransportRequest) -> Int? {
        guard request.body == nil, let data = request.httpBody, !data.isEmpty, data.count <= largestWholeBody else { return nil }
        return data.count
    }
}

/// The chunks of a request body as AsyncHTTPClient asks for them, each reported to `sent` when
/// handed over. AsyncHTTPClient asks for the next only once the connection took the previous
/// one, so at most a few chunks are in memory, and progress follows the socket.
///
/// A file or form is read where AsyncHTTPClient asks, a blocking read of 256 KiB at a time
/// from the page cache (a fraction of a millisecond).
struct UploadChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    enum Source: @unchecked Sendable {
        /// Read once, by the one iterator AsyncHTTPClient makes.
        case reader(BodyReader)
        case chunks(ResponseBody.Iterator)
        case memory(Data, chunkSize: Int)
    }

    let source: Source
    let sent: @Sendable (Int) -> Void

    init(_ source: Source, sent: @escaping @Sendable (Int) -> Void) {
        self.source = source
        self.sent = sent
    }

    func makeAsyncIterator() -> Iterator { Iterator(source: source, sent: sent) }

    struct Iterator: AsyncIteratorProtocol {
        var source: Source
        let sent: @Sendable (Int) -> Void
        var offset = 0

        mutating func next() async throws -> ByteBuffer? {
            let chunk: Data?
            switch source {
            case .reader(let reader):
                chunk = try reader.next()
            case .chunks(var iterator):
                chunk = try await iterator.next()
                source = .chunks(iterator)
            case .memory(let data, let size):
                let start = data.startIndex + offset
                let end = Swift.min(start + size, data.endIndex)
                chunk = start < end ? data[start..<end] : nil
                offset += end - start
            }
            guard let chunk else { return nil }
            sent(chunk.count)
            return ByteBuffer(data: chunk)
        }
    }
}
