import Foundation

/// Percent-encoding as RFC 3986 defines it, with stricter sets than Foundation's
/// (`URLComponents` leaves `+`, `&` and `=` alone in query items, which servers then misread).
enum PercentEncoding {
    /// RFC 3986 "unreserved": the only bytes never encoded.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// A path segment: unreserved plus the sub-delimiters that no server reads specially.
    private static let pathSegment = unreserved.union(CharacterSet(charactersIn: "!$'()*,;:@"))

    /// Encodes one path segment: everything but letters, digits, `-._~!$'()*,;:@`.
    static func pathSegment(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: pathSegment) ?? ""
    }

    /// Encodes a query name or value: everything but letters, digits and `-._~`; space is `%20`.
    static func queryComponent(_ component: String) -> String {
        component.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// Encodes `name=value` pairs as a query string, keeping a `nil` value as a bare name.
    static func query(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = queryComponent(item.name)
            return item.value.map { "\(name)=\(queryComponent($0))" } ?? name
        }.joined(separator: "&")
    }

    /// Encodes pairs as `application/x-www-form-urlencoded`: like a query, with space as `+`.
    static func form(_ items: [URLQueryItem]) -> String {
        query(items).replacingOccurrences(of: "%20", with: "+")
    }
}
