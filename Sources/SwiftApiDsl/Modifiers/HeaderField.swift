/// The name of an HTTP header field. Lookup ignores case, as HTTP does.
///
/// Every header-setting call takes one, so `.header(.` completes to the names below; any other
/// name is a string literal away, and a name held in a `String` is `HeaderField(name)`:
/// ```swift
/// client.header(.acceptLanguage, "fr-FR")
/// client.header("X-Api-Version", "2")
/// client.header(HeaderField(configuredName), value)
/// ```
public struct HeaderField: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The field name as sent.
    public let rawValue: String

    /// Creates a field name, sent as given.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a field name, sent as given: `HeaderField("X-Trace-Id")`.
    public init(_ name: String) { self.rawValue = name }
    /// Creates a field name from a literal: `"X-Trace-Id"` where a `HeaderField` is expected.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The field name as sent.
    public var description: String { rawValue }

    /// `Accept`: the media types the client takes, e.g. `application/json`.
    public static let accept: HeaderField = "Accept"
    /// `Accept-Encoding`: the content codings the client takes, e.g. `gzip`.
    public static let acceptEncoding: HeaderField = "Accept-Encoding"
    /// `Accept-Language`: the languages the client prefers, e.g. `fr-FR`.
    public static let acceptLanguage: HeaderField = "Accept-Language"
    /// `Authorization`: the credentials; a secret, never printed.
    public static let authorization: HeaderField = "Authorization"
    /// `Cache-Control`: caching directives, e.g. `no-cache`.
    public static let cacheControl: HeaderField = "Cache-Control"
    /// `Content-Disposition`: how a body or a multipart part is presented, e.g. its file name.
    public static let contentDisposition: HeaderField = "Content-Disposition"
    /// `Content-Encoding`: how the body is compressed, e.g. `gzip`.
    public static let contentEncoding: HeaderField = "Content-Encoding"
    /// `Content-Length`: the body's size in bytes.
    public static let contentLength: HeaderField = "Content-Length"
    /// `Content-Type`: the body's media type, e.g. `application/json`.
    public static let contentType: HeaderField = "Content-Type"
    /// `Cookie`: cookies sent to the server; a secret, never printed.
    public static let cookie: HeaderField = "Cookie"
    /// `If-None-Match`: an entity tag, to get `304 Not Modified` when it still matches.
    public static let ifNoneMatch: HeaderField = "If-None-Match"
    /// `Location`: where a redirect or a created resource points.
    public static let location: HeaderField = "Location"
    /// `Proxy-Authorization`: credentials for a proxy; a secret, never printed.
    public static let proxyAuthorization: HeaderField = "Proxy-Authorization"
    /// `User-Agent`: the client's name and version, e.g. `my-app/5.0.1`.
    public static let userAgent: HeaderField = "User-Agent"
}
