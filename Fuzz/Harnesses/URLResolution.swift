/// Fuzzes the resolution of URLs a server or a caller gives: a redirect's `Location`
/// (Sources/SwiftApiDsl/Transport/RedirectPolicy.swift), a page's `next` link and `Link` header
/// (Pagination/PageLink.swift), and a path against the base URL (Request/URLResolution.swift).
///
/// Properties: a followed redirect goes to an absolute http(s) URL with a host, turns into a GET
/// exactly when 301/302 after POST or 303 after anything but HEAD say so, and keeps credentials
/// only on the same origin; a next link is refused with an error or, if it is not absolute
/// http(s) with a host, refused by the check every request passes before it is sent; a path is
/// refused with ``ApiClientError`` (code `.unresolvableURL`) or lands under the base URL, on its host, with its query,
/// its path percent-decoding to the base's path then the path given.
@testable import SwiftApiDsl
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let urlResolutionHarness: Harness = { input in
    let base = URL(string: input.pick([
        "https://api.example.com/v1/items?page=2", "http://127.0.0.1:8080/a/b/", "https://example.com",
        "https://user:secret@example.com:8443/x;p/y?q=1#frag", "http://[::1]:9000/v2/",
    ]))!
    let reference = String(decoding: input.rest(), as: UTF8.self)
    checkRedirect(from: base, to: reference, status: [301, 302, 303, 307, 308][reference.utf8.count % 5])
    checkNextLink(reference, page: base)
    checkPath(reference, base: base)
}

private func checkRedirect(from base: URL, to location: String, status: Int) {
    var request = URLRequest(url: base)
    request.httpMethod = ["GET", "POST", "HEAD", "PUT"][location.utf8.count % 4]
    request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
    guard let response = HTTPURLResponse(url: base, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Location": location]),
          let next = Redirect.proposedRequest(after: response, to: request)
    else { return }
    let target = next.url
    let scheme = target?.scheme?.lowercased()
    require(scheme == "http" || scheme == "https", "redirect to \(location.debugDescription) goes to \(target?.absoluteString ?? "nil")")
    require(target?.host?.isEmpty == false, "redirect to \(location.debugDescription) goes to \(target!.absoluteString), which has no host")
    let method = request.httpMethod!
    let becomesGet = (status == 303 && method != "HEAD") || ([301, 302].contains(status) && method == "POST")
    require(next.httpMethod == (becomesGet ? "GET" : method), "\(status) after \(method) sends \(next.httpMethod ?? "nil")")
    let sameOrigin = target!.origin == base.origin
    require((next.value(forHTTPHeaderField: "Authorization") != nil) == sameOrigin,
            "Authorization \(sameOrigin ? "dropped on the same origin" : "kept for another origin"): \(target!.absoluteString)")
}

private func checkNextLink(_ link: String, page: URL) {
    let head = ResponseHead(statusCode: 200, headerFields: ["Link": "<\(link)>; rel=\"next\""], httpVersion: "HTTP/1.1", url: page)
    let response = Response(body: link, head: head)
    for rule in [PageLink<String>.url { (page: String) -> String? in page }, .linkHeader] {
        let next: URL?
        do {
            next = try rule.next(response, page)
        } catch {
            require((error as? ApiClientError)?.code == .unresolvableURL, "the next link \(link.debugDescription) failed with \(error)")
            continue
        }
        guard let next, !link.isEmpty else { continue }
        // Pages loads it as a request, which is checked before it is sent.
        do {
            try FinishedRequestCheck.check(TransportRequest(url: next))
            let scheme = next.scheme?.lowercased()
            require((scheme == "http" || scheme == "https") && next.host?.isEmpty == false, "\(next.absoluteString) passed the check")
        } catch {
            require((error as? ApiClientError)?.code == .invalidURL, "the check of \(next.absoluteString) failed with \(error)")
        }
    }
}

private func checkPath(_ path: String, base: URL) {
    let resolved: URL
    do {
        resolved = try URLResolution.Base(base).url(path: path)
    } catch {
        require((error as? ApiClientError)?.code == .unresolvableURL, "the path \(path.debugDescription) failed with \(error)")
        return
    }
    let components = URLComponents(url: resolved, resolvingAgainstBaseURL: false)
    let baseComponents = URLComponents(url: base, resolvingAgainstBaseURL: false)!
    require(resolved.scheme == base.scheme && resolved.host == base.host && resolved.port == base.port,
            "the path \(path.debugDescription) left the base: \(resolved.absoluteString)")
    require(components?.percentEncodedQuery == baseComponents.percentEncodedQuery, "the path \(path.debugDescription) changed the query: \(resolved.absoluteString)")
    guard !path.isEmpty else { return }
    var basePath = baseComponents.percentEncodedPath
    if basePath.hasSuffix("/") { basePath.removeLast() }
    let expected = (percentDecoded(basePath) ?? basePath) + (path.hasPrefix("/") ? path : "/" + path)
    let decoded = components.flatMap { percentDecoded($0.percentEncodedPath) }
    require(decoded == expected, "the path \(path.debugDescription) gave \(resolved.absoluteString), decoding to \(decoded ?? "nil")")
}
