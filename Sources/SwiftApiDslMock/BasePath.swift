import Foundation

/// The base URL's origin and path, to express a request's URL as a path relative to it.
///
/// The relative path is what stubs and `ApiClientMock/recordedRequests(method:path:)` match:
/// base `https://h/api/v1` and URL `https://h/api/v1/todos/7?done=1` give `todos/7`. The query
/// and fragment are ignored, each segment is percent-decoded, and a trailing slash is kept as a
/// last empty segment. A URL outside the base (another scheme, host or port, or a path that
/// does not start with the base's path, as after a redirect) gives its whole path.
struct BasePath: Sendable {
    private let origin: String
    /// The base's percent-encoded path without its trailing slash, then with one.
    private let path: String
    private let pathWithSlash: String

    init(_ baseUrl: URL) {
        let components = URLComponents(url: baseUrl, resolvingAgainstBaseURL: true)
        var path = components?.percentEncodedPath ?? ""
        if path.hasSuffix("/") { path.removeLast() }
        self.origin = baseUrl.origin
        self.path = path
        self.pathWithSlash = path + "/"
    }

    /// The percent-decoded segments of `url`'s path after the base's path; `[]` for the base itself.
    func segments(of url: URL) -> [String] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return [] }
        var relative = Substring(components.percentEncodedPath)
        if url.origin == origin, relative == path || relative.hasPrefix(pathWithSlash) {
            relative = relative.dropFirst(path.count)
        }
        if relative.hasPrefix("/") { relative = relative.dropFirst() }
        guard !relative.isEmpty else { return [] }
        return relative.split(separator: "/", omittingEmptySubsequences: false).map { $0.removingPercentEncoding ?? String($0) }
    }
}
