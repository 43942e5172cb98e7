/// The name of an HTTP header field. Lookup ignores case, as HTTP does.
///
/// ```swift
/// client.header(.acceptLanguage, "fr-FR")
/// client.header("X-Api-Version", "2")
/// ```
public struct HeaderField: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The field name as sent.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static let accept: HeaderField = "Accept"
    public static let acceptEncoding: HeaderField = "Accept-Encoding"
    public static let acceptLanguage: HeaderField = "Accept-Language"
    public static let authorization: HeaderField = "Authorization"
    public static let cacheControl: HeaderField = "Cache-Control"
    public static let contentDisposition: HeaderField = "Content-Disposition"
    public static let contentEncoding: HeaderField = "Content-Encoding"
    public static let contentLength: HeaderField = "Content-Length"
    public static let contentType: HeaderField = "Content-Type"
    public static let cookie: HeaderField = "Cookie"
    public static let ifNoneMatch: HeaderField = "If-None-Match"
    public static let location: HeaderField = "Location"
    public static let proxyAuthorization: HeaderField = "Proxy-Authorization"
    public static let userAgent: HeaderField = "User-Agent"

    /// The fields whose values are secrets: never printed in a description or a log.
    public static let secrets: Set<String> = ["authorization", "cookie", "proxy-authorization"]
}
