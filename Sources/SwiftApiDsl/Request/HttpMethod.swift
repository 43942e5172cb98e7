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
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static let get: HttpMethod = "GET"
    public static let post: HttpMethod = "POST"
    public static let put: HttpMethod = "PUT"
    public static let patch: HttpMethod = "PATCH"
    public static let delete: HttpMethod = "DELETE"
    public static let head: HttpMethod = "HEAD"
    public static let options: HttpMethod = "OPTIONS"
}
