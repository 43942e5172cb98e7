import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestBuilder {
    /// Sends the request and returns as soon as the response head has arrived and passed the
    /// validators, with the body to read as it arrives, in chunks of `Data`.
    ///
    /// ```swift
    /// let response = try await client.get("events").stream()
    /// for try await chunk in response.body {
    ///     handle(chunk)
    /// }
    /// ```
    /// - Validators run on the head before the first chunk: they see an empty body for a 2xx
    ///   response, and the server's error document otherwise (read first, up to 1 MiB, and then
    ///   handed to the caller as the body; a larger one is dropped), as for downloads. Without
    ///   validators (or with the client's switch off) every body is handed over unread.
    /// - Cancelling the task that reads the body, or releasing the body and its iterator before
    ///   the end, closes the connection. A failure while reading throws a ``RequestError``.
    /// - The idle timeout counts only the time spent waiting for the server, not the time the
    ///   caller takes between two chunks. ``RequestModifier/maxResponseSize(_:)`` applies:
    ///   an announced `Content-Length` above it fails here, a body growing past it fails the read.
    /// - The body can be read once.
    /// - Observers hear that the request finished when the body ends, fails or is released,
    ///   with the bytes the caller read.
    public func stream() async throws -> Response<ResponseBody> {
        do {
            let (response, _) = try await openStream()
            return response.withBody(response.body.mappingErrors(of: client))
        } catch {
            throw client.mapped(error)
        }
    }

    /// `stream()` with the request the response answers, and without the client's error mapping
    /// (for a caller that tells errors apart first, as a reconnecting event stream does).
    func openStream() async throws -> (response: Response<ResponseBody>, request: TransportRequest) {
        try await pipeline.observed(mapsErrors: false, endsWithBody: true) { trace in
            let (response, request, streamed) = try await pipeline.execute(into: .caller, trace: trace)
            let body = streamed ?? ResponseBody(response.body)
            return (response.withBody(trace.map { $0.observing(body) } ?? body), request)
        }
    }
}
