import Foundation

/// A path and a base URL that do not form a URL.
public struct URLResolutionError: Error, Sendable, CustomStringConvertible {
    /// Why.
    public let reason: String
    public var description: String { reason }
}

enum URLResolution {
    /// `path` appended to `base`'s path, percent-encoded, keeping `base`'s query.
    ///
    /// Built as text and parsed once: every request takes this path, and `URLComponents`
    /// round trips cost several times more on Linux.
    static func url(base: URL, path: String?) throws -> URL {
        guard base.scheme?.isEmpty == false, base.host?.isEmpty == false else {
            throw URLResolutionError(reason: "the base URL \(base.absoluteString) has no scheme and host")
        }
        guard let path, !path.isEmpty else { return base.absoluteURL }
        if let control = path.unicodeScalars.first(where: isControl) {
            let hex = String(control.value, radix: 16, uppercase: true)
            throw URLResolutionError(reason: "the path \(path.debugDescription) contains the control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)")
        }
        let encoded = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentEncoding.pathSegment(String($0)) }
            .joined(separator: "/")
        // The base without its fragment, split at its query.
        let text = base.absoluteString
        let withoutFragment = text.firstIndex(of: "#").map { text[..<$0] } ?? Substring(text)
        let queryStart = withoutFragment.firstIndex(of: "?")
        var prefix = queryStart.map { withoutFragment[..<$0] } ?? withoutFragment
        let query = queryStart.map { withoutFragment[$0...] } ?? ""
        if prefix.hasSuffix("/") { prefix = prefix.dropLast() }
        let joined = prefix + (encoded.hasPrefix("/") ? encoded : "/" + encoded) + query
        guard let url = URL(string: String(joined)) else {
            throw URLResolutionError(reason: "the path \(path.debugDescription) does not form a URL with \(base.absoluteString)")
        }
        return url
    }

    /// An absolute URL given as the request's target, checked like a base URL.
    static func absolute(_ url: URL) throws -> URL {
        guard url.scheme?.isEmpty == false, url.host?.isEmpty == false else {
            throw URLResolutionError(reason: "the URL \(url.absoluteString) is not absolute: it has no scheme and host")
        }
        return url.absoluteURL
    }

    /// C0 and C1 control characters and DEL.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
