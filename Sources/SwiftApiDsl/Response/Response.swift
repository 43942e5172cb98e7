import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response: its body (raw `Data` or decoded) and its `HTTPURLResponse`.
///
/// ```swift
/// let response: Response<Profile> = try await client.get("user/profile").perform()
/// print(response.httpResponse.statusCode, response.body.name)
/// ```
public struct Response<Body> {
    /// The body: the bytes received, or the value they decoded into.
    public let body: Body
    /// The head, with its Foundation form made on demand.
    let head: ResponseHead

    /// Creates a response.
    public init(body: Body, httpResponse: HTTPURLResponse) {
        self.init(body: body, head: ResponseHead(httpResponse))
    }

    init(body: Body, head: ResponseHead) {
        self.body = body
        self.head = head
    }

    /// Status code and headers, in Foundation's form; made at the first use, then kept.
    public var httpResponse: HTTPURLResponse { head.httpResponse }

    /// The HTTP status code, e.g. `200`.
    public var statusCode: Int { head.statusCode }

    /// The header fields, in the order received; lookup ignores case.
    public var headerFields: HeaderFields { head.headerFields }

    /// The same response with another body, e.g. the decoded one.
    public func withBody<NewBody>(_ body: NewBody) -> Response<NewBody> {
        Response<NewBody>(body: body, head: head)
    }
}

extension Response: Sendable where Body: Sendable {}

/// The head of a response in the library's own form, with its `HTTPURLResponse` made only
/// when someone asks for it, once.
///
/// Making an `HTTPURLResponse` costs about 10 µs on Linux (swift-corelibs-foundation
/// capitalises and hashes every header name), as much as the rest of the pipeline; most
/// requests never look at it.
final class ResponseHead: Sendable {
    let statusCode: Int
    let headerFields: HeaderFields
    /// Where the response came from; see ``Response/source``.
    let source: ResponseSource
    private let httpVersion: String
    private let url: URL?
    private let made: Locked<HTTPURLResponse?>

    /// A head from its parts, for the request sent to `url`.
    init(statusCode: Int, headerFields: HeaderFields, httpVersion: String, url: URL?, source: ResponseSource = .network) {
        self.statusCode = statusCode
        self.headerFields = headerFields
        self.source = source
        self.httpVersion = httpVersion
        self.url = url
        self.made = Locked(nil)
    }

    /// A head whose Foundation form exists already; it is handed out as it is.
    /// `headerFields` are the response's, when they were read from it already.
    init(_ response: HTTPURLResponse, headerFields: HeaderFields? = nil, source: ResponseSource = .network) {
        statusCode = response.statusCode
        self.headerFields = headerFields ?? HeaderFields(response)
        self.source = source
        httpVersion = "HTTP/1.1"
        url = response.url
        made = Locked(response)
    }

    /// The Foundation form, made at the first call.
    var httpResponse: HTTPURLResponse {
        made.withLock { made in
            if let made { return made }
            // Foundation's initialiser is failable; it fails for no input on Linux, and the
            // pipeline lets through only a status of 100 to 999 (`Exchange.send`).
            guard let response = HTTPURLResponse(url: url ?? URL(fileURLWithPath: "/"), statusCode: statusCode,
                                                 httpVersion: httpVersion, headerFields: headerFields.merged)
            else { preconditionFailure("HTTPURLResponse refused status \(statusCode)") }
            made = response
            return response
        }
    }
}
