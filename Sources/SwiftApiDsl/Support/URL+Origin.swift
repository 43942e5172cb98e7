import Foundation

extension URL {
    /// `scheme://host:port`, lowercased, with the scheme's default port made explicit: two URLs
    /// with the same origin are the same server (RFC 6454). Redirects drop credentials when it
    /// changes; the mock uses it to tell whether a URL lies under the base URL.
    package var origin: String {
        let scheme = scheme?.lowercased() ?? ""
        let port = port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host?.lowercased() ?? ""):\(port)"
    }
}
