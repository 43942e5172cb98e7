/// An HTTP method. The common ones are constants; any other is one string away.
///
/// ```swift
/// client.request(.get, "users")
/// client.request(HttpMethod("PURGE"), "cache/users")
/// ```
public struct HttpMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method as sent on the wire, e.g. `"GET"`.
    public let rawValue: String

    /// Creates a method from its wire name, used as given (methods are case-sensitive).
    public init(_ name: String) { self.rawValue = name }
    /// Creates a method from its wire name, used as given.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a method from a literal: `"PURGE"` where an `HttpMethod` is expected.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The method as sent, e.g. `GET`.
    public var description: String { rawValue }

    /// `GET`: reads a resource.
    public static let get: HttpMethod = "GET"
    /// `POST`: sends data for the server to process, e.g. creates a resource.
    public static let post: HttpMethod = "POST"
    /// `PUT`: replaces a resource with the body.
    public static let put: HttpMethod = "PUT"
    /// `PATCH`: changes part of a resource.
    public static let patch: HttpMethod = "PATCH"
    /// `DELETE`: removes a resource.
    public static let delete: HttpMethod = "DELETE"
    /// `HEAD`: as `GET`, without the body: headers only.
    public static let head: HttpMethod = "HEAD"
    /// `OPTIONS`: asks which methods and options a resource supports.
    public static let options: HttpMethod = "OPTIONS"
}
