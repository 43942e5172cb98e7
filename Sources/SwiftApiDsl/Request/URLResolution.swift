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
            let encoded = path.split(separator: "/", omittingEmptySubsequences: false)
                .map { PercentEncoding.pathSegment(String($0)) }
                .joined(separator: "/")
            let joined = prefix + (encoded.hasPrefix("/") ? encoded : "/" + encoded) + query
            guard let resolved = URL(string: String(joined)) else {
                throw ApiClientError(.unresolvableURL, message: "the path \(path.debugDescription) does not form a URL with \(Redaction.url(url))")
            }
            return resolved
        }
    }

    /// `url` with `items` appended to its query (after the items it has), percent-encoded strictly.
    static func appending(_ items: [URLQueryItem], to url: URL) throws -> URL {
        guard !items.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        components.percentEncodedQuery = [components.percentEncodedQuery, PercentEncoding.query(items)]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        guard let appended = components.url else {
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
