import Foundation

/// A path and a base URL that do not form a URL.
public struct URLResolutionError: Error, Sendable, CustomStringConvertible {
    /// Why.
    public let reason: String
    public var description: String { reason }
}

enum URLResolution {
    /// `path` appended to `base`'s path, percent-encoded, keeping `base`'s query.
    static func url(base: URL, path: String?) throws -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true),
              components.scheme?.isEmpty == false, components.host?.isEmpty == false
        else {
            throw URLResolutionError(reason: "the base URL \(base.absoluteString) has no scheme and host")
        }
        guard let path, !path.isEmpty else { return base.absoluteURL }
        if let index = path.unicodeScalars.firstIndex(where: { $0.properties.generalCategory == .control }) {
            let scalar = path.unicodeScalars[index]
            let hex = String(scalar.value, radix: 16, uppercase: true)
            throw URLResolutionError(reason: "the path \(path.debugDescription) contains the control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)")
        }
        let encoded = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentEncoding.pathSegment(String($0)) }
            .joined(separator: "/")
        let basePath = components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = basePath + (encoded.hasPrefix("/") ? encoded : "/" + encoded)
        components.fragment = nil
        guard let url = components.url else {
            throw URLResolutionError(reason: "the path \(path.debugDescription) does not form a URL with \(base.absoluteString)")
        }
        return url
    }
}
