#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL
import SwiftApiDsl

extension HTTPClient.Request {
    /// Header fields that AsyncHTTPClient writes itself from the body it is given.
    private static let framingFields = ["content-length", "transfer-encoding"]

    /// Whether `name` is one of ``framingFields``; a name of another length is not lowercased.
    private static func isFraming(_ name: String) -> Bool {
        framingFields.contains { $0.utf8.count == name.utf8.count && $0 == name.lowercased() }
    }

    /// How many bytes of a streamed body are read from disk at a time.
    static let uploadChunkSize = 256 * 1024

    /// The AsyncHTTPClient form of `request`: URL, method, header fields, body and TLS settings.
    ///
    /// An in-memory body is sent from `httpBody`; a file or multipart body is streamed from
    /// disk with its exact `Content-Length` (never chunked). Its size is read now, so that a
    /// missing file fails before anything is sent. The upload's futures complete on `eventLoop`;
    /// a streamed body's reading stops when the exchange under `control` ends. `tls` is what the
    /// request's `TLSSettings` became.
    init(_ request: TransportRequest, eventLoop: any EventLoop, control: ExchangeControl = ExchangeControl(),
         tls: TLSConfiguration? = nil) throws {
        // The request's own fields: no `URLRequest` is made on this path.
        guard let url = request.url else { throw URLError(.badURL) }
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields where !Self.isFraming(field.name) {
            headers.add(name: field.name, value: field.value)
        }
        let body: HTTPClient.Body?
        if case .stream(let streamed) = request.body {
            body = .chunks(try streamed.makeChunks(endingWith: control), length: streamed.length, eventLoop: eventLoop)
        } else if let streamed = request.body {
            body = Self.streaming(streamed, length: try streamed.contentLength(), eventLoop: eventLoop)
        } else {
            body = request.httpBody.map { .bytes($0) }
        }
        try self.init(url: url, method: HTTPMethod(rawValue: request.method.rawValue), headers: headers, body: body,
                      tlsConfiguration: tls)
    }

    /// A body read from disk chunk by chunk while it is sent, each chunk read only once the
    /// previous one is on its way, so at most a few chunks are in memory.
    ///
    /// The reads are blocking and run where AsyncHTTPClient asks for the next chunk (its event
    /// loop): a 256 KiB read from the page cache takes a fraction of a millisecond. Reading on
    /// another thread (NIO's thread pool) was tried: the first chunk then went out late, a
    /// server that answers before reading the body (httpbin's `/redirect-to` with a 307) got its
    /// answer in first, and AsyncHTTPClient, which ends an exchange only once the upload ends,
    /// stopped taking the upload: the exchange waited for the idle timeout.
    private static func streaming(_ source: RequestBody, length: Int64, eventLoop: any EventLoop) -> HTTPClient.Body {
        .stream(contentLength: length) { writer in
            let reader = ReaderBox(source.makeReader(chunkSize: uploadChunkSize))
            @Sendable func pump() -> EventLoopFuture<Void> {
                do {
                    guard let chunk = try reader.next() else { return eventLoop.makeSucceededVoidFuture() }
                    return writer.write(.byteBuffer(ByteBuffer(data: chunk))).flatMap { pump() }
                } catch {
                    return eventLoop.makeFailedFuture(error)
                }
            }
            return pump()
        }
    }
}

extension HTTPClient.Body {
    /// How many written chunks may wait to be taken by the connection before the next one is read.
    static let chunksInFlight = 4

    /// Chunks written as they come, with a `Content-Length` when `length` is known, chunked
    /// otherwise. A task reads `chunks`, so a producer that waits does not hold the event loop.
    ///
    /// Up to ``chunksInFlight`` writes may be pending before the next chunk is read: this bounds
    /// memory, and a body of that many chunks ends at once even when the server answers before
    /// reading it (httpbin's `/redirect-to` with a 307), after which AsyncHTTPClient stops
    /// completing writes: awaiting each write stalled such an exchange until the server closed the
    /// connection (about 60 s). A larger body that meets such a server mid-way still waits for it.
    ///
    /// `chunks` end with the exchange (`StreamedBody.makeChunks(endingWith:)`), so a producer
    /// that stalls is not waited for after the call.
    static func chunks(_ chunks: ResponseBody, length: Int64?, eventLoop: any EventLoop) -> HTTPClient.Body {
        .stream(contentLength: length) { writer in
            let done = eventLoop.makePromise(of: Void.self)
            Task {
                do {
                    var pending: [EventLoopFuture<Void>] = []
                    for try await chunk in chunks {
                        if pending.count >= chunksInFlight { try await pending.removeFirst().get() }
                        pending.append(writer.write(.byteBuffer(ByteBuffer(data: chunk))))
                    }
                    done.succeed(())
                } catch {
                    done.fail(error)
                }
            }
            return done.futureResult
        }
    }
}

/// A `BodyReader` shared by the steps of one upload. They run one after the other (each read
/// starts once the previous chunk is written), never at the same time.
private final class ReaderBox: @unchecked Sendable {
    private let reader: BodyReader

    init(_ reader: BodyReader) { self.reader = reader }

    func next() throws -> Data? { try reader.next() }
}
#endif
