import Foundation

enum URLResolution {
    /// A base URL taken apart once, when the client is made, for every path resolved against it.
    struct Base: Sendable {
        let url: URL
        /// Why paths cannot be resolved against `url`, if they cannot.
        private let failure: ApiClientError?
        /// The absolute text up to the query, without a trailing slash.
        private let prefix: Substring
        /// The query with its `?`, or nothing.
        private let query: Substring

        init(_ url: URL) {
            self.url = url
            failure = url.scheme?.isEmpty == false && url.host?.isEmpty == false ? nil
                : ApiClientError(.unresolvableURL, message: "the base URL \(Redaction.url(url)) has no scheme and host")
            // The base without its fragment, split at its query.
            let text = url.absoluteString
            let withoutFragment = text.firstIndex(of: "#").map { text[..<$0] } ?? Substring(text)
            let queryStart = withoutFragment.firstIndex(of: "?")
            let prefix = queryStart.map { withoutFragment[..<$0] } ?? withoutFragment
            self.prefix = prefix.hasSuffix("/") ? prefix.dropLast() : prefix
            query = queryStart.map { withoutFragment[$0...] } ?? ""
        }

        /// Where `call` goes before any modifier: its absolute URL, else its path against this base.
        func url(for call: CallDescription) throws -> URL {
            try call.url.map(URLResolution.absolute) ?? url(path: call.path)
        }

        /// `path` appended to the base URL's path, percent-encoded, keeping its query.
        func url(path: String?) throws -> URL {
            if let failure { throw failure }
            guard let path, !path.isEmpty else { return url.absoluteURL }
            if let control = path.unicodeScalars.first(where: isControl) {
                let hex = String(control.value, radix: 16, uppercase: true)
                throw ApiClientError(.unresolvableURL, message: "the path \(path.debugDescription) contains the control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)")
            }
            let encoded = PercentEncoding.path(path)
            let joined = prefix + (encoded.hasPrefix("/") ? encoded : "/" + encoded) + query
            guard let resolved = URL(string: String(joined)) else {
                throw ApiClientError(.unresolvableURL, message: "the path \(path.debugDescription) does not form a URL with \(Redaction.url(url))")
            }
            return resolved
        }
    }

    /// `url` with `items` appended to its query (after the items it has), percent-encoded strictly.
    /// Written into the URL's text and parsed once: a `URLComponents` round trip costs about
    /// four times more on Linux.
    static func appending(_ items: [URLQueryItem], to url: URL) throws -> URL {
        guard !items.isEmpty else { return url }
        let text = url.absoluteString
        let fragment = text.utf8.firstIndex(of: UInt8(ascii: "#")) ?? text.endIndex
        let head = text[..<fragment]
        // Bytes, not `contains("?")`: on Linux that overload goes through `NSString`.
        let separator = !head.utf8.contains(UInt8(ascii: "?")) ? "?" : head.utf8.last == UInt8(ascii: "?") ? "" : "&"
        guard let appended = URL(string: String(head) + separator + PercentEncoding.query(items) + text[fragment...]) else {
            throw ApiClientError(.unresolvableURL, message: "query items named \(items.map(\.name)) do not form a URL with \(Redaction.url(url))")
        }
        return appended
    }

    /// `path` appended to `base`'s path, percent-encoded, keeping `base`'s query.
    ///
    /// Built as text and parsed once: every request takes this path, and `URLComponents`
    /// round trips cost several times more on Linux. A client keeps its base taken apart
    /// (``Base``), so a request only encodes its path and parses the result.
    static func url(base: URL, path: String?) throws -> URL {
        try Base(base).url(path: path)
    }

    /// An absolute URL given as the request's target, checked like a base URL.
    static func absolute(_ url: URL) throws -> URL {
        guard url.scheme?.isEmpty == false, url.host?.isEmpty == false else {
            throw ApiClientError(.unresolvableURL, message: "the URL \(Redaction.url(url)) is not absolute: it has no scheme and host")
        }
        return url.absoluteURL
    }

    /// C0 and C1 control characters and DEL.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

/// Percent-encoding as RFC 3986 defines it, with stricter sets than Foundation's
/// (`URLComponents` leaves `+`, `&` and `=` alone in query items, which servers then misread).
enum PercentEncoding {
    /// RFC 3986 "unreserved": the only bytes never encoded.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// A path segment: unreserved plus the sub-delimiters that no server reads specially.
    private static func isPathSegmentByte(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$'()*,;:@".utf8.contains(byte)
    }

    /// Encodes one path segment: everything but letters, digits, `-._~!$'()*,;:@` (a `/` too).
    static func pathSegment(_ segment: String) -> String {
        encode(segment, keeping: isPathSegmentByte)
    }

    /// Encodes a path as ``pathSegment(_:)`` encodes each of its segments, keeping the `/`
    /// between them. One pass over the bytes; a path with nothing to encode is returned as it is.
    static func path(_ path: String) -> String {
        encode(path) { $0 == UInt8(ascii: "/") || isPathSegmentByte($0) }
    }

    /// Encodes a query name or value: everything but letters, digits and `-._~`; space is `%20`.
    static func queryComponent(_ component: String) -> String {
        encode(component, keeping: isUnreserved)
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

    /// `text` with every UTF-8 byte that `keep` refuses written as `%XX`.
    private static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        if text.utf8.allSatisfy(keep) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if keep(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
