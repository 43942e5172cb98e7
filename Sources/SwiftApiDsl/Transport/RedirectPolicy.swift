import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a request follows HTTP redirects. Set it on a client or on one request:
/// ```swift
/// client.redirectPolicy(.doNotFollow)             // the 3xx response is the result
/// client.get("login").redirectPolicy(.follow(max: 3))
/// client.redirectPolicy(.custom { redirect in     // decide per hop
///     redirect.proposedRequest.url?.host == "api.example.com" ? redirect.proposedRequest : nil
/// })
/// ```
/// The library follows redirects itself, the same way on every platform and transport:
/// `Location` is resolved against the request URL as RFC 3986 says (trailing slash and query
/// kept); 301 and 302 turn a POST into a GET and 303 turns any method but HEAD into a GET,
/// dropping the body; every other hop (307 and 308 always) keeps the method and the body, a
/// streamed one included; a hop to another origin
/// (scheme, host or port) drops every header field the library redacts
/// (``HeaderField/isRedacted``: `Authorization`, `Cookie`, `X-Api-Key`, names given to
/// ``HeaderField/redact(_:)``…).
/// Past the maximum, the request fails with `URLError(.httpTooManyRedirects)` as a
/// ``RequestError/transport(_:_:)``. A response that is not followed (policy, no `Location`,
/// another status) goes to the validators like any other.
public struct RedirectPolicy: Sendable {
    /// The most redirects one request follows.
    public let maxRedirects: Int
    let decide: @Sendable (Redirect) async throws -> URLRequest?

    /// Follows up to 10 redirects. The default.
    public static let follow = RedirectPolicy.follow(max: 10)

    /// Follows up to `max` redirects.
    public static func follow(max: Int) -> RedirectPolicy {
        RedirectPolicy(maxRedirects: max) { $0.proposedRequest }
    }

    /// Follows none: the 3xx response is the result.
    public static let doNotFollow = RedirectPolicy(maxRedirects: 0) { _ in nil }

    /// Asks `decide` at each hop: return the request to send next (the proposed one or a
    /// rewritten one), or `nil` to stop and keep the 3xx response. An error it throws fails the
    /// request as ``RequestError/transport(_:_:)``.
    public static func custom(
        max: Int = 10,
        _ decide: @escaping @Sendable (Redirect) async throws -> URLRequest?
    ) -> RedirectPolicy {
        RedirectPolicy(maxRedirects: max, decide: decide)
    }
}

/// One redirect the server asked for, as a ``RedirectPolicy`` sees it.
public struct Redirect: Sendable {
    /// The request that received the redirect.
    public let request: URLRequest
    /// The 3xx response.
    public let response: HTTPURLResponse
    /// The request the default rules would send next.
    public let proposedRequest: URLRequest
    /// Which hop this is, from 1.
    public let count: Int
}

extension Redirect {
    static let statusCodes: Set<Int> = [301, 302, 303, 307, 308]

    /// The request that following `response` sends by default, or `nil` when `response` is not
    /// a redirect that can be followed.
    static func proposedRequest(after response: HTTPURLResponse, to request: URLRequest) -> URLRequest? {
        guard statusCodes.contains(response.statusCode),
              let location = response.value(forHTTPHeaderField: HeaderField.location.rawValue),
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
              target.host?.isEmpty == false // `Location: //` or `http:` resolves to a URL without one
        else { return nil }

        var next = request
        next.url = target
        let method = request.httpMethod ?? "GET"
        let becomesGet = (response.statusCode == 303 && method != "HEAD")
            || ([301, 302].contains(response.statusCode) && method == "POST")
        if becomesGet {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: HeaderField.contentType.rawValue)
            next.setValue(nil, forHTTPHeaderField: HeaderField.contentLength.rawValue)
        }
        // Every field the library would redact stays behind (`Authorization`, `Cookie`,
        // `X-Api-Key`, a name given to `HeaderField.redact(_:)`…), not only the standard ones.
        if let from = request.url, from.origin != target.origin {
            for field in (request.allHTTPHeaderFields ?? [:]).keys where SecretNames.contains(field) {
                next.setValue(nil, forHTTPHeaderField: field)
            }
        }
        return next
    }
}
