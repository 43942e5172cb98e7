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

/// A body type that can stand for "no content".
///
/// Decoding into such a type succeeds on an empty body (a `204`, an empty `200`) without
/// reading JSON. ``EmptyResponse`` is the ready-made one; conform your own types to accept
/// empty bodies too. It refines `Sendable`, so a conformance to it is never isolated to the main
/// actor, not even in an app target with main-actor isolation by default: the library recognises
/// it off the main actor, where an isolated conformance would not be found.
public protocol EmptyDecodable: Decodable, Sendable {
    /// The value an empty body decodes into.
    static var emptyValue: Self { get }
}

/// The body of a response that carries none, or whose content you ignore.
///
/// ```swift
/// let _: EmptyResponse = try await client.delete("todos/7").perform()
/// ```
/// It decodes from an empty body and from any JSON at all.
public struct EmptyResponse: EmptyDecodable, Sendable, Equatable {
    public init() {}
    public init(from decoder: Decoder) throws {}
    public static var emptyValue: EmptyResponse { EmptyResponse() }
}
