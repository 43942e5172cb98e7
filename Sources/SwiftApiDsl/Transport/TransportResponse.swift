import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a transport returns for one exchange: the response head, and the body still to read.
///
/// ```swift
/// TransportResponse(statusCode: 200, headerFields: ["Content-Type": "application/json"], body: ResponseBody(data))
/// ```
public struct TransportResponse: Sendable {
    /// The HTTP status code, e.g. `200`.
    public var statusCode: Int
    /// The header fields, in the order received.
    public var headerFields: HeaderFields
    /// The HTTP version, e.g. `"HTTP/1.1"`.
    public var httpVersion: String
    /// The body, read once by the pipeline.
    public var body: ResponseBody
    /// The Foundation form of the head, when the engine already made one (URLSession, a mock).
    private(set) var httpURLResponse: HTTPURLResponse?
    /// The request this response answers, as the transport received it (after redirects and
    /// middlewares): set on every exchange's response. A middleware that answers without the
    /// network (a cache hit) sets the request it answers; `nil` leaves the call's own.
    public var sentRequest: TransportRequest?
    /// Where the response came from: ``ResponseSource/network`` as every exchange returns it; a
    /// middleware that answers from a store of its own sets ``ResponseSource/stored`` or
    /// ``ResponseSource/revalidated``, which the call's ``Response/source``, its metrics and the
    /// middlewares added before it see.
    ///
    /// ```swift
    /// let log = Middleware("log") { request, next in
    ///     let response = try await next(request)
    ///     print(request.url?.path ?? "", response.source)   // network, stored or revalidated
    ///     return response
    /// }
    /// ```
    public var source = ResponseSource.network


    /// A response head from its parts.
    public init(statusCode: Int, headerFields: HeaderFields = [:], httpVersion: String = "HTTP/1.1", body: ResponseBody = .empty) {
        self.statusCode = statusCode
        self.headerFields = headerFields
        self.httpVersion = httpVersion
        self.body = body
    }

    /// A response whose head is an `HTTPURLResponse` the engine made; it is handed to the
    /// caller as it is.
    public init(_ httpResponse: HTTPURLResponse, body: ResponseBody = .empty) {
        self.init(statusCode: httpResponse.statusCode, headerFields: HeaderFields(httpResponse), body: body)
        httpURLResponse = httpResponse
    }

    /// Throws `URLError(.badServerResponse)` for a status HTTP cannot have (outside 100 to 999),
    /// which Foundation may also refuse to hold in an `HTTPURLResponse`: checked where an engine
    /// answers and where the middleware chain does, since a middleware may make a response up.
    func checkStatus() throws {
        guard (100...999).contains(statusCode) else { throw URLError(.badServerResponse) }
    }

    /// The head for the request sent to `url`: the engine's own Foundation form, or one made on demand.
    func head(for url: URL?) -> ResponseHead {
        if let httpURLResponse { return ResponseHead(httpURLResponse, headerFields: headerFields, source: source) }
        return ResponseHead(statusCode: statusCode, headerFields: headerFields, httpVersion: httpVersion, url: url, source: source)
    }
}
