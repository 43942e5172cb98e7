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
