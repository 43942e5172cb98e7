import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

// The transport that Sources/SwiftApiDsl/SwiftApiDsl.docc/Transports.md ("Writing a transport") shows, word for word.

/// Serves requests from a function in the same process: a fake server for demos and tests.
/// The function gets the request and a continuation to write the body to, and returns the
/// status and header fields; it may go on writing the body after it returned.
struct InProcessTransport: HTTPTransport {
    typealias Body = AsyncThrowingStream<Data, any Error>
    let handler: @Sendable (URLRequest, Body.Continuation) async throws -> (Int, HeaderFields)

    func send(_ request: TransportRequest, control: ExchangeControl) async throws -> TransportResponse {
        var urlRequest = request.urlRequest
        if let body = request.body {              // a file or a multipart form: read it whole here
            var data = Data()
            let reader = body.makeReader()
            while let chunk = try reader.next() {
                data.append(chunk)
                control.didSend(chunk.count)      // activity, for the idle timeout
            }
            urlRequest.httpBody = data
        }
        let (stream, continuation) = Body.makeStream()
        control.onAbort { continuation.finish(throwing: $0) }   // timeout, cancellation, body dropped
        let (status, fields) = try await handler(urlRequest, continuation)
        return TransportResponse(statusCode: status, headerFields: fields, body: ResponseBody(stream))
    }
}
